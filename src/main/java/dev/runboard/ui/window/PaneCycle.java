package dev.runboard.ui.window;

import java.util.List;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;

/**
 * F6 / Shift+F6: moves the focus to the next (previous) pane of the window that is showing, the
 * way desktop apps cycle their panes; a pane that is a container gives the focus to its first
 * focusable control.
 */
final class PaneCycle {
    private PaneCycle() {
    }

    static void move(Scene scene, List<Node> panes, int step) {
        Node focused = scene.getFocusOwner();
        int current = -1;
        for (int i = 0; i < panes.size(); i++) {
            if (focused != null && isInside(focused, panes.get(i))) {
                current = i;
                break;
            }
        }
        for (int n = 1; n <= panes.size(); n++) {
            Node next = panes.get(Math.floorMod(current + step * n, panes.size()));
            Node target = focusable(next);
            if (target != null) {
                target.requestFocus();
                return;
            }
        }
    }

    private static boolean isInside(Node node, Node pane) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (n == pane) {
                return true;
            }
        }
        return false;
    }

    private static Node focusable(Node node) {
        if (node == null || !node.isVisible() || node.getScene() == null || node.isDisabled()) {
            return null;
        }
        if (node.isFocusTraversable()) {
            return node;
        }
        if (node instanceof Parent p) {
            for (Node child : p.getChildrenUnmodifiable()) {
                Node found = focusable(child);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
