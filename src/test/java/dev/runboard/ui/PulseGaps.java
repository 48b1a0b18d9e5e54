package dev.runboard.ui;

import java.util.Arrays;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import javafx.animation.AnimationTimer;

/**
 * Records the time between FX pulses: a frozen FX thread shows as a long gap. Beside each gap, the CPU
 * time the FX thread itself used in it: a long gap with little of it is the machine not running the
 * thread (a loaded CI box), a long gap full of it is the window's own work. Start and stop on the FX thread.
 */
public final class PulseGaps extends AnimationTimer {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private long last;
    private long lastCpu;
    private double[] gaps = new double[4096];
    private double[] busy = new double[4096];
    private volatile int count;

    @Override
    public void handle(long now) {
        long cpu = THREADS.getCurrentThreadCpuTime();
        if (last != 0) {
            synchronized (this) {
                if (count == gaps.length) {
                    gaps = Arrays.copyOf(gaps, count * 2);
                    busy = Arrays.copyOf(busy, count * 2);
                }
                gaps[count] = (now - last) / 1e6;
                busy[count] = (cpu - lastCpu) / 1e6;
                count++;
            }
        }
        last = now;
        lastCpu = cpu;
    }

    /** The most CPU the FX thread used between two pulses, in ms: the longest the window's own work held it. */
    public synchronized double maxBusy() {
        double m = 0;
        for (int i = 0; i < count; i++) {
            m = Math.max(m, busy[i]);
        }
        return m;
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
                out.append(String.format(java.util.Locale.ROOT, "%.0f@%.0f(cpu %.0f) ", gaps[i], at, busy[i]));
            }
        }
        return out.toString().trim();
    }

    public double max() {
        return percentile(100);
    }
}
