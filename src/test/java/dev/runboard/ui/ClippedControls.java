package dev.runboard.ui;

import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Labeled;

/**
 * Walks a scene for what a person would see cut off: a button, label, header or column title
 * narrower than the width its text asks for (so it shows "…"), or one that lies partly outside
 * the window. Cells' content is left out (long values elide by design), and so are labels that
 * wrap or that elide on purpose with their full text in a tooltip (style class {@code elides}).
 */
public final class ClippedControls {
    private ClippedControls() {
    }

    /** One line per clipped control: its id or class, its text, its width and the width it asks for (FX thread). */
    public static List<String> in(Scene scene) {
        List<String> found = new ArrayList<>();
        walk(scene.getRoot(), scene, found);
        return found;
    }

    /** As {@link #in(Scene)}, for one part of a scene: a toast, a notice, a dialog's field (FX thread). */
    public static List<String> under(Node node) {
        List<String> found = new ArrayList<>();
        walk(node, node.getScene(), found);
        return found;
    }

    /**
     * What {@code l} draws of its text: its skin's text node, which holds the text cut to "..." when it
     * does not fit its width (or, wrapped, its height); null before the skin drew it (FX thread). Also
     * for what {@link #in} leaves out: cells, and labels that wrap.
     */
    public static String drawnText(Labeled l) {
        javafx.scene.text.Text t = textNode(l);
        return t == null ? null : t.getText();
    }

    /** The node that draws {@code l}'s text (see {@link #drawnText}), to see where it lies; null before the skin made it. */
    public static javafx.scene.text.Text textNode(Labeled l) {
        for (Node child : l.getChildrenUnmodifiable()) {
            if (child instanceof javafx.scene.text.Text t && t.getStyleClass().contains("text")) {
                return t;
            }
        }
        return null;
    }

    private static void walk(Node node, Scene scene, List<String> found) {
        if (!node.isVisible() || node instanceof IndexedCell<?>) {
            return;
        }
        if (node instanceof Labeled l && !l.isWrapText() && !l.getStyleClass().contains("elides")
                && l.getText() != null && !l.getText().isEmpty()) {
            double want = l.prefWidth(-1);
            Bounds b = l.localToScene(l.getLayoutBounds());
            if (l.getWidth() < want - 0.5) {
                found.add(describe(l) + " is " + Math.round(l.getWidth()) + " px wide, needs " + Math.round(want));
            } else if (b.getMaxX() > scene.getWidth() + 0.5 || b.getMinX() < -0.5) {
                found.add(describe(l) + " lies outside the window (x " + Math.round(b.getMinX()) + ".." + Math.round(b.getMaxX()) + ")");
            } else {
                hiddenByClip(l, b).ifPresent(found::add);
            }
        }
        if (node instanceof Parent p) {
            for (Node child : p.getChildrenUnmodifiable()) {
                walk(child, scene, found);
            }
        }
    }

    /**
     * Cut off sideways by an ancestor's clip (a split pane's side, say). Only sideways: what a
     * scroll pane or list holds below its fold is reachable by scrolling.
     */
    private static java.util.Optional<String> hiddenByClip(Labeled l, Bounds b) {
        for (Parent p = l.getParent(); p != null; p = p.getParent()) {
            if (p.getClip() != null && !(p instanceof javafx.scene.control.ScrollPane)
                    && !p.getClass().getName().contains("VirtualFlow")) {
                Bounds clip = p.localToScene(p.getClip().getBoundsInParent());
                if (b.getMaxX() > clip.getMaxX() + 0.5 || b.getMinX() < clip.getMinX() - 0.5) {
                    return java.util.Optional.of(describe(l) + " is cut off by the edge of " + p.getClass().getSimpleName()
                            + p.getStyleClass() + " (x " + Math.round(b.getMinX()) + ".." + Math.round(b.getMaxX())
                            + " outside " + Math.round(clip.getMinX()) + ".." + Math.round(clip.getMaxX()) + ")");
                }
            }
        }
        return java.util.Optional.empty();
    }

    private static String describe(Labeled l) {
        String name = l.getId() != null ? "#" + l.getId() : l.getClass().getSimpleName() + l.getStyleClass();
        return name + " \"" + l.getText() + "\"";
    }
}
