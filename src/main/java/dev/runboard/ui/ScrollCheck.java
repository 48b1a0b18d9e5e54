package dev.runboard.ui;

import java.util.Arrays;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.TableView;

/**
 * Scrolls a table from its first row to its last, a page per pulse (as dragging the scroll bar
 * does: every cell gets a new row each frame), and times the frames: the interval between one
 * pulse and the next. For the start-up report's smoothness figure; FX thread.
 */
final class ScrollCheck {
    /** Rows per step: more than a tall window shows, so every step replaces every visible cell. */
    private static final int PAGE = 50;

    record Result(int frames, double p50Millis, double p99Millis, double maxMillis) {
    }

    private final Scene scene;
    private final TableView<?> table;
    private final Consumer<Result> done;
    private final long[] intervals;
    private final Runnable onPulse = this::pulse;
    private int step;
    private long last;

    ScrollCheck(Scene scene, TableView<?> table, Consumer<Result> done) {
        this.scene = scene;
        this.table = table;
        this.done = done;
        this.intervals = new long[Math.max(1, (table.getItems().size() + PAGE - 1) / PAGE)];
    }

    void start() {
        if (table.getItems().isEmpty()) {
            done.accept(new Result(0, 0, 0, 0));
            return;
        }
        table.scrollTo(0);
        scene.addPostLayoutPulseListener(onPulse);
        Platform.requestNextPulse();
    }

    private void pulse() {
        long now = System.nanoTime();
        if (last != 0) {
            intervals[step - 1] = now - last;
        }
        last = now;
        if (step == intervals.length) {
            scene.removePostLayoutPulseListener(onPulse);
            done.accept(result());
            return;
        }
        step++;
        table.scrollTo(Math.min(table.getItems().size() - 1, step * PAGE));
        Platform.requestNextPulse();
    }

    private Result result() {
        long[] sorted = intervals.clone();
        Arrays.sort(sorted);
        return new Result(sorted.length, millis(sorted, 0.50), millis(sorted, 0.99), sorted[sorted.length - 1] / 1e6);
    }

    private static double millis(long[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
    }
}
