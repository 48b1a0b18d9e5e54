package dev.runboard.ui.window;

import javafx.beans.InvalidationListener;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.SplitPane;

/**
 * The workspace sidebar sits in a horizontal split beside the sessions, so its edge can be dragged
 * to read long names and errors. A hidden item would still hold a divider and its room, so the
 * sidebar leaves the split while no workspace is open and comes back where it was left. Where its
 * edge is lives in {@link #positionProperty()} whether it is shown or not, so the window can
 * remember it across restarts. The sidebar itself is loaded only when first needed, so the split
 * and its remembered edge exist before it does ({@link #attach}).
 */
final class SidebarSplit {
    private final SplitPane split;
    private Node sidebar;
    private final DoubleProperty position = new SimpleDoubleProperty(this, "position");
    private final InvalidationListener dividerMoved = o -> readDivider();
    private SplitPane.Divider followed;
    /** True while the sidebar goes into the split: the new divider's first places are not the person's. */
    private boolean adding;

    private SidebarSplit(SplitPane split) {
        this.split = split;
        position.set(split.getDividerPositions().length > 0 ? split.getDividerPositions()[0] : 0.24);
    }

    /** Follows {@code split}'s first divider; the sidebar joins it with {@link #attach}. */
    static SidebarSplit install(SplitPane split) {
        SidebarSplit s = new SidebarSplit(split);
        split.getDividers().addListener((ListChangeListener<SplitPane.Divider>) c -> s.followDivider());
        s.position.addListener((o, was, now) -> s.moveDivider(now.doubleValue()));
        s.followDivider();
        return s;
    }

    /** The sidebar, now that it exists: it is in the split while it is visible, at the remembered edge. */
    void attach(Node view) {
        if (sidebar != null) {
            return;
        }
        sidebar = view;
        SplitPane.setResizableWithParent(view, false);
        view.visibleProperty().addListener((o, was, now) -> show(now));
        show(view.isVisible());
    }

    private void show(boolean visible) {
        boolean shown = split.getItems().contains(sidebar);
        if (visible && !shown) {
            double at = position.get();
            adding = true;
            try {
                split.getItems().add(0, sidebar);
            } finally {
                adding = false;
            }
            split.setDividerPositions(at);
        } else if (!visible && shown) {
            split.getItems().remove(sidebar);
        }
    }

    private void followDivider() {
        if (followed != null) {
            followed.positionProperty().removeListener(dividerMoved);
        }
        followed = split.getDividers().isEmpty() ? null : split.getDividers().get(0);
        if (followed != null) {
            followed.positionProperty().addListener(dividerMoved);
        }
    }

    private void readDivider() {
        if (!adding && followed != null && sidebar != null && split.getItems().contains(sidebar)) {
            position.set(followed.getPosition());
        }
    }

    private void moveDivider(double fraction) {
        if (followed != null && sidebar != null && split.getItems().contains(sidebar) && Math.abs(followed.getPosition() - fraction) > 1e-6) {
            split.setDividerPositions(fraction);
        }
    }

    /** Where the sidebar's edge is (a fraction of the split's width); setting it moves the edge, or places it for when the sidebar shows. */
    DoubleProperty positionProperty() {
        return position;
    }
}
