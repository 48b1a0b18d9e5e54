package dev.runboard.ui.launch;

import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Window;

/** Keeps a dialog inside the screen it is on: no taller than it, and moved up when it grew past its bottom. */
final class ScreenFit {
    /** Room left for a panel or dock at the screen's edge. */
    private static final double MARGIN = 24;

    private ScreenFit() {
    }

    static void keepOnScreen(Window w) {
        var screens = Screen.getScreensForRectangle(w.getX(), w.getY(), Math.max(1, w.getWidth()), Math.max(1, w.getHeight()));
        Rectangle2D area = (screens.isEmpty() ? Screen.getPrimary() : screens.get(0)).getVisualBounds();
        double maxHeight = area.getHeight() - MARGIN;
        if (w.getHeight() > maxHeight) {
            w.setHeight(maxHeight);
        }
        if (w.getY() + w.getHeight() > area.getMaxY()) {
            w.setY(Math.max(area.getMinY(), area.getMaxY() - w.getHeight()));
        }
        if (w.getY() < area.getMinY()) {
            w.setY(area.getMinY());
        }
    }
}
