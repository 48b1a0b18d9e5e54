package dev.runboard.ui;

import javafx.geometry.Rectangle2D;

/**
 * The main window's first size and its minimum on a screen (the screen's visual bounds). The minimum
 * is the smallest size at which every control keeps its whole label (WindowLayoutTest checks it),
 * unless the screen is smaller still: on an 800x600 screen a 1024x700 minimum put the window past its
 * edges.
 */
record WindowSizing(double width, double height, double minWidth, double minHeight) {

    static WindowSizing on(Rectangle2D screen) {
        return new WindowSizing(firstSize(1280, 0.8, screen.getWidth(), MainWindow.MIN_WIDTH),
                firstSize(800, 0.85, screen.getHeight(), MainWindow.MIN_HEIGHT),
                Math.min(MainWindow.MIN_WIDTH, screen.getWidth()), Math.min(MainWindow.MIN_HEIGHT, screen.getHeight()));
    }

    /**
     * The first size on a screen: a good share of a large screen, 1280×800 on a laptop, never more
     * than the screen (nor less than the minimum, which a tiny screen cannot help).
     */
    static double firstSize(double usual, double share, double screen, double minimum) {
        return Math.min(screen, Math.max(minimum, Math.max(usual, Math.floor(screen * share))));
    }
}
