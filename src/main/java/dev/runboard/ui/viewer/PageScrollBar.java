package dev.runboard.ui.viewer;

import dev.runboard.artifact.PageReader;
import java.util.function.DoubleConsumer;
import javafx.scene.control.ScrollBar;

/**
 * The viewer's scroll bar over a file of any size: its position is the shown page's byte offset
 * as a fraction of the file, so dragging it asks for the page at that fraction.
 */
final class PageScrollBar {
    private static final double MAX = 1_000_000;
    private final ScrollBar bar;
    private boolean updating;

    PageScrollBar(ScrollBar bar, DoubleConsumer dragged) {
        this.bar = bar;
        bar.setMax(MAX);
        bar.valueProperty().addListener((o, was, now) -> {
            if (!updating) {
                dragged.accept(now.doubleValue() / MAX);
            }
        });
    }

    /** Moves the thumb to the page shown (without asking for a page). */
    void show(PageReader.Page p) {
        updating = true;
        long size = Math.max(1, p.fileSize());
        long shownEnd = p.lines().isEmpty() ? p.anchor() : p.lines().get(p.lines().size() - 1).next();
        bar.setVisibleAmount(Math.max(MAX / 200, (shownEnd - p.anchor()) * MAX / size));
        bar.setValue(shownEnd >= p.fileSize() ? MAX : p.anchor() * MAX / size);
        updating = false;
    }
}
