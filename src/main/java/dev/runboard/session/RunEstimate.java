package dev.runboard.session;

import java.util.List;

/**
 * What a command's earlier successful runs say about a new run: how long they took and how much
 * they printed. It estimates progress by one of two predictors, elapsed time against their median
 * duration or output written against their median output size, whichever was right more often on
 * those runs themselves: each earlier run, seen at its midpoint against the median of the others
 * (leave-one-out), should read 50 %. What a run had printed at its midpoint comes from its time
 * index where there is one: a runner that prints most of its output in a burst and then works in
 * silence had printed 80 % by then, so output would be a poor guide and time is used; where nothing
 * says, output is taken to grow evenly (half at the midpoint), which picks whichever of duration and
 * size varied less; a test suite printing a line per test is steadier in size than in time.
 * Immutable; made once when a run starts, read at every snapshot.
 */
public final class RunEstimate {
    /** No estimate: fewer than {@link #MIN_RUNS} earlier successful runs. */
    public static final RunEstimate NONE = new RunEstimate(0, 0, 0, 0, false);
    public static final int MIN_RUNS = 2;
    /** Never show a running session as done: the last percent is the process actually exiting. */
    private static final double MAX_PROGRESS = 0.99;

    private final double medianSeconds;
    private final double medianBytes;
    /** How far past the longest earlier run a run may go, by time, before it is "longer than usual". */
    public static final double TIME_MARGIN = 1.2;
    private final double maxSeconds;
    private final double maxBytes;
    private final boolean byOutput;

    private RunEstimate(double medianSeconds, double medianBytes, double maxSeconds, double maxBytes, boolean byOutput) {
        this.medianSeconds = medianSeconds;
        this.medianBytes = medianBytes;
        this.maxSeconds = maxSeconds;
        this.maxBytes = maxBytes;
        this.byOutput = byOutput;
    }

    /** The estimate from a history's recent successful runs (the running session itself not among them). */
    public static RunEstimate from(RunHistory earlier) {
        return from(earlier, run -> Double.NaN);
    }

    /**
     * As {@link #from(RunHistory)}, with {@code shareAtMidpoint} telling what part (0–1) of a run's
     * output it had printed at half its duration, or NaN where that is not known (taken as half).
     */
    public static RunEstimate from(RunHistory earlier, java.util.function.ToDoubleFunction<Run> shareAtMidpoint) {
        List<Run> good = earlier.recentSuccesses();
        if (good.size() < MIN_RUNS) {
            return NONE;
        }
        double[] seconds = good.stream().mapToDouble(Run::durationSeconds).toArray();
        double[] bytes = good.stream().mapToDouble(Run::outputBytes).toArray();
        double[] shares = good.stream().mapToDouble(r -> {
            double share = shareAtMidpoint.applyAsDouble(r);
            return Double.isNaN(share) ? 0.5 : Math.max(0, Math.min(1, share));
        }).toArray();
        double[] timesAtMidpoint = new double[seconds.length];
        double[] outputsAtMidpoint = new double[bytes.length];
        for (int j = 0; j < seconds.length; j++) {
            timesAtMidpoint[j] = seconds[j] / 2;
            outputsAtMidpoint[j] = bytes[j] * shares[j];
        }
        double medianBytes = RunHistory.median(bytes);
        boolean byOutput = medianBytes > 0 && midpointError(bytes, outputsAtMidpoint) < midpointError(seconds, timesAtMidpoint);
        return new RunEstimate(RunHistory.median(seconds), medianBytes, max(seconds), max(bytes), byOutput);
    }

    /**
     * The mean error, at each run's midpoint, of reading its progress against the median of the other
     * runs: {@code atMidpoint[j]} is what run j had reached then (seconds, or bytes printed), and the
     * reading should be 0.5.
     */
    static double midpointError(double[] values, double[] atMidpoint) {
        double sum = 0;
        for (int j = 0; j < values.length; j++) {
            double[] others = new double[values.length - 1];
            for (int i = 0, k = 0; i < values.length; i++) {
                if (i != j) {
                    others[k++] = values[i];
                }
            }
            double median = RunHistory.median(others);
            sum += median <= 0 ? 1 : Math.abs(atMidpoint[j] / median - 0.5);
        }
        return sum / values.length;
    }

    public boolean known() {
        return medianSeconds > 0;
    }

    /** Which predictor this estimate uses: {@code output} or {@code time}. */
    public String basis() {
        return byOutput ? "output" : "time";
    }

    /** The progress of a run that has been running {@code elapsedSeconds} and written {@code bytes}. */
    public RunProgress at(double elapsedSeconds, long bytes) {
        if (!known()) {
            return RunProgress.NONE;
        }
        // Beyond every earlier run, by time or by output, the earlier runs no longer describe this one.
        // Time gets a margin: the same run jitters by a few percent (more on a busy machine), and a run
        // 2 % past the longest is not "longer than usual"; output of the same command does not jitter.
        if (elapsedSeconds > maxSeconds * TIME_MARGIN || (maxBytes > 0 && bytes > maxBytes)) {
            return RunProgress.LONGER_THAN_USUAL;
        }
        double raw = byOutput ? bytes / medianBytes : elapsedSeconds / medianSeconds;
        double progress = Math.max(0, Math.min(MAX_PROGRESS, raw));
        // By output, the total is projected from this run's own pace once there is enough of it to go by.
        double total = byOutput && progress >= 0.05 ? elapsedSeconds / progress : medianSeconds;
        double eta = Math.max(0, total - elapsedSeconds);
        return new RunProgress(progress, eta, false, basis());
    }

    private static double max(double[] values) {
        double m = 0;
        for (double v : values) {
            m = Math.max(m, v);
        }
        return m;
    }

    @Override
    public String toString() {
        return known() ? "RunEstimate[" + basis() + ", median " + medianSeconds + " s, " + medianBytes + " B]" : "RunEstimate[none]";
    }
}
