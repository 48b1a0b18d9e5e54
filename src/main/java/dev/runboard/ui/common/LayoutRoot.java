package dev.runboard.ui.common;

import javafx.beans.InvalidationListener;
import javafx.beans.value.ChangeListener;
import javafx.scene.Parent;
import javafx.scene.layout.Region;

/**
 * Makes a region that changes all the time its own layout root. JavaFX re-lays out every
 * ancestor of a node whose size may have changed, up to the scene root; an unmanaged node is a
 * layout root, so its changes are laid out inside it. Its parent no longer sizes it: this fills
 * it to the parent's bounds instead. Under 20 flooding sessions the layout passes up to the root
 * were the largest part of the FX thread's work on each refresh.
 */
public final class LayoutRoot {
    private LayoutRoot() {
    }

    public static void isolate(Region node) {
        node.setManaged(false);
        InvalidationListener fill = o -> {
            if (node.getParent() != null) {
                javafx.geometry.Bounds b = node.getParent().getLayoutBounds();
                node.resizeRelocate(0, 0, b.getWidth(), b.getHeight());
            }
        };
        ChangeListener<Parent> follow = (o, was, now) -> {
            if (was != null) {
                was.layoutBoundsProperty().removeListener(fill);
            }
            if (now != null) {
                now.layoutBoundsProperty().addListener(fill);
                fill.invalidated(null);
            }
        };
        node.parentProperty().addListener(follow);
        follow.changed(node.parentProperty(), null, node.getParent());
    }
}
