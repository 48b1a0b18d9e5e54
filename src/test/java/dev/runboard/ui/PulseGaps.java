package dev.runboard.ui;

import java.util.Arrays;
import javafx.animation.AnimationTimer;

/** Records the time between FX pulses: a frozen FX thread shows as a long gap. Start and stop on the FX thread. */
public final class PulseGaps extends AnimationTimer {
    private long last;
    private double[] gaps = new double[4096];
    private volatile int count;

    @Override
    public void handle(long now) {
        if (last != 0) {
            if (count == gaps.length) {
                gaps = Arrays.copyOf(gaps, count * 2);
            }
            gaps[count] = (now - last) / 1e6;
            count++;
        }
        last = now;
    }

    public int count() {
        return count;
    }

    public synchronized double percentile(double p) {
        double[] sorted = Arrays.copyOf(gaps, count);
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100 * sorted.length) - 1)];
    }

    /** The gaps over {@code ms}, in order, each with the time into the window at which it ended. */
    public synchronized String longGaps(double ms) {
        StringBuilder out = new StringBuilder();
        double at = 0;
        for (int i = 0; i < count; i++) {
            at += gaps[i];
            if (gaps[i] > ms) {
                out.append(String.format(java.util.Locale.ROOT, "%.0f@%.0f ", gaps[i], at));
            }
        }
        return out.toString().trim();
    }

    public double max() {
        return percentile(100);
    }
}
