package dev.runboard.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import javafx.geometry.Rectangle2D;
import org.junit.jupiter.api.Test;

/**
 * The window's first size and minimum for a screen's visual bounds, as MainWindow sets them on its
 * stage. Issue 47: at 800x600 the window kept 1022x675 and ran off the screen.
 */
class WindowSizingTest {
    @Test
    void onAScreenSmallerThanTheMinimumTheWindowAndItsMinimumAreTheScreen() {
        WindowSizing size = WindowSizing.on(new Rectangle2D(0, 0, 800, 600));
        assertEquals(new WindowSizing(800, 600, 800, 600), size);
        // A panel takes part of the screen: the visual bounds are what is left.
        assertEquals(new WindowSizing(800, 572, 800, 572), WindowSizing.on(new Rectangle2D(0, 28, 800, 572)));
    }

    @Test
    void onALaptopAndALargeScreenTheMinimumIsTheSizeAtWhichNothingIsCut() {
        assertEquals(new WindowSizing(1280, 800, MainWindow.MIN_WIDTH, MainWindow.MIN_HEIGHT),
                WindowSizing.on(new Rectangle2D(0, 0, 1280, 800)));
        assertEquals(new WindowSizing(1536, 918, MainWindow.MIN_WIDTH, MainWindow.MIN_HEIGHT),
                WindowSizing.on(new Rectangle2D(0, 0, 1920, 1080)));
        // Between the two: at least the minimum, never more than the screen.
        assertEquals(new WindowSizing(1100, 720, MainWindow.MIN_WIDTH, MainWindow.MIN_HEIGHT),
                WindowSizing.on(new Rectangle2D(0, 0, 1100, 720)));
    }
}
