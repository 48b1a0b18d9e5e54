package dev.runboard.ui.window;

import javafx.scene.Node;
import javafx.scene.control.SplitPane;

/**
 * The workspace sidebar sits in a horizontal split beside the sessions, so its edge can be dragged
 * to read long names and errors. A hidden item would still hold a divider and its room, so the
 * sidebar leaves the split while no workspace is open and comes back where it was left.
 */
final class SidebarSplit {
    private final SplitPane split;
    private final Node sidebar;
    private double position;

    private SidebarSplit(SplitPane split, Node sidebar) {
        this.split = split;
        this.sidebar = sidebar;
        this.position = split.getDividerPositions().length > 0 ? split.getDividerPositions()[0] : 0.24;
    }

    static SidebarSplit install(SplitPane split, Node sidebar) {
        SidebarSplit s = new SidebarSplit(split, sidebar);
        sidebar.visibleProperty().addListener((o, was, now) -> s.show(now));
        s.show(sidebar.isVisible());
        return s;
    }

    private void show(boolean visible) {
        boolean shown = split.getItems().contains(sidebar);
        if (visible && !shown) {
            split.getItems().add(0, sidebar);
            split.setDividerPositions(position);
        } else if (!visible && shown) {
            position = split.getDividerPositions()[0];
            split.getItems().remove(sidebar);
        }
    }

    /** Where the sidebar's edge is (a fraction of the split's width), for the window's remembered state. */
    double position() {
        return split.getItems().contains(sidebar) ? split.getDividerPositions()[0] : position;
    }

    void setPosition(double fraction) {
        position = fraction;
        if (split.getItems().contains(sidebar)) {
            split.setDividerPositions(fraction);
        }
    }
}
