package dev.runboard.session;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleFunction;

/**
 * Every run of one command ({@link RunKey}), oldest first, and what a person asks of them: how
 * often it succeeds, how long a good run usually takes, and a picture of the durations.
 */
public record RunHistory(RunKey key, List<Run> runs) {
    /** How many of the newest successful runs "usually" means: old enough runs say little about today. */
    public static final int RECENT = 10;
    private static final String BARS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588";

    public RunHistory {
        runs = List.copyOf(runs);
    }

    /** The runs among {@code all} (oldest first) that share {@code key}. */
    public static RunHistory of(RunKey key, Collection<SessionSnapshot> all) {
        List<Run> mine = new ArrayList<>();
        for (SessionSnapshot s : all) {
            if (key.equals(RunKey.of(s))) {
                mine.add(Run.of(s));
            }
        }
        return new RunHistory(key, mine);
    }

    /** The share of ended runs that succeeded (0–1); null when none has ended. */
    public Double successRate() {
        long ended = runs.stream().filter(Run::ended).count();
        long good = runs.stream().filter(r -> r.ended() && r.succeeded()).count();
        return ended == 0 ? null : (double) good / ended;
    }

    /** The newest (up to {@link #RECENT}) successful runs, oldest first. */
    public List<Run> recentSuccesses() {
        List<Run> good = runs.stream().filter(r -> r.ended() && r.succeeded()).toList();
        return good.subList(Math.max(0, good.size() - RECENT), good.size());
    }

    /** The median duration of the recent successful runs, in seconds; null when there is none. */
    public Double medianSuccessSeconds() {
        List<Run> good = recentSuccesses();
        return good.isEmpty() ? null : median(good.stream().mapToDouble(Run::durationSeconds).toArray());
    }

    /** The durations of the ended runs, oldest first (what the sparkline draws). */
    public List<Double> durations() {
        return runs.stream().filter(Run::ended).map(Run::durationSeconds).toList();
    }

    /** The durations of the ended runs as a line of block characters, tallest for the longest. */
    public String sparkline() {
        List<Double> d = durations();
        double max = d.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        StringBuilder line = new StringBuilder();
        for (double v : d) {
            int i = max <= 0 ? 0 : (int) Math.round(v / max * (BARS.length() - 1));
            line.append(BARS.charAt(i));
        }
        return line.toString();
    }

    /**
     * One line over the runs: how many, the success rate once one has ended, and the usual duration
     * (said by {@code duration}) once one succeeded — "1 run · none ended yet" rather than dashes and
     * "the median of the last 0 successful". The History tab and {@code runboard history} both say it.
     */
    public String summary(DoubleFunction<String> duration) {
        int n = runs.size();
        StringBuilder line = new StringBuilder(n + (n == 1 ? " run" : " runs"));
        Double rate = successRate();
        if (rate == null) {
            return line.append(" \u00b7 none ended yet").toString();
        }
        line.append(" \u00b7 success rate ").append(Math.round(rate * 100)).append(" %");
        Double median = medianSuccessSeconds();
        if (median == null) {
            return line.append(" \u00b7 none succeeded yet").toString();
        }
        int successes = recentSuccesses().size();
        return line.append(" \u00b7 usually ").append(duration.apply(median))
                .append(successes == 1 ? " (its one success)" : " (median of the last " + successes + " successful)").toString();
    }

    /** The run just before {@code id} (any outcome), when there is one. */
    public Optional<Run> previous(String id) {
        return before(id, false);
    }

    /** The last successful run before {@code id}, when there is one. */
    public Optional<Run> lastGreen(String id) {
        return before(id, true);
    }

    private Optional<Run> before(String id, boolean succeeded) {
        Run found = null;
        for (Run r : runs) {
            if (r.id().equals(id)) {
                return Optional.ofNullable(found);
            }
            if (r.ended() && (!succeeded || r.succeeded())) {
                found = r;
            }
        }
        return Optional.empty();
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
