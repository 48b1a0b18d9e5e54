package dev.runboard.session;

import java.time.Duration;
import java.util.List;

/**
 * What runboard watches in a running session besides its exit: output rules, a hang watchdog
 * ("no output for {@code hangAfter}" → warn or kill) and runaway guards (RSS above
 * {@code maxRssBytes}, or CPU above {@code maxCpuPercent} for {@code cpuFor}, → kill).
 * Every field is optional; {@link #NONE} watches nothing.
 */
public record WatchSpec(
        List<OutputRule> rules,
        Duration hangAfter,
        HangAction hangAction,
        Long maxRssBytes,
        Double maxCpuPercent,
        Duration cpuFor) {

    public static final WatchSpec NONE = new WatchSpec(List.of(), null, null, null, null, null);
    /** An RSS limit below this would kill any command as it starts (a shell alone uses about a MiB). */
    public static final long MIN_RSS_BYTES = Sizes.MIB;
    /** More memory than any machine has (x86-64 addresses 128 TiB): a larger limit can only be a typo. */
    public static final long MAX_RSS_BYTES = Sizes.PIB;
    /** 100 % is one core: a thousand cores. */
    public static final double MAX_CPU_PERCENT = 100_000;

    /** What the hang watchdog does when the session has been silent too long. */
    public enum HangAction { WARN, KILL }

    public WatchSpec {
        rules = rules == null ? List.of() : List.copyOf(rules);
        hangAction = hangAction == null ? HangAction.WARN : hangAction;
    }

    public WatchSpec withRules(List<OutputRule> newRules) {
        return new WatchSpec(newRules, hangAfter, hangAction, maxRssBytes, maxCpuPercent, cpuFor);
    }

    public WatchSpec withHang(Duration after, HangAction action) {
        return new WatchSpec(rules, after, action, maxRssBytes, maxCpuPercent, cpuFor);
    }

    public WatchSpec withMaxRss(Long bytes) {
        return new WatchSpec(rules, hangAfter, hangAction, bytes, maxCpuPercent, cpuFor);
    }

    public WatchSpec withMaxCpu(Double percent, Duration forAtLeast) {
        return new WatchSpec(rules, hangAfter, hangAction, maxRssBytes, percent, forAtLeast);
    }

    public boolean isEmpty() {
        return rules.isEmpty() && hangAfter == null && maxRssBytes == null && maxCpuPercent == null;
    }

    /** Rejects settings that cannot work, naming the field. */
    public void validate() {
        rules.forEach(OutputRule::compile);
        checkHangAfter(hangAfter, "the hang watchdog");
        if (maxRssBytes != null) {
            checkMaxRss(maxRssBytes, "the RSS limit");
        }
        if (maxCpuPercent != null && cpuFor == null) {
            throw new InvalidSpecException("guards", "the CPU guard needs a positive percentage and a duration");
        }
        if (maxCpuPercent != null) {
            checkMaxCpu(maxCpuPercent, "the CPU limit");
            checkCpuFor(cpuFor, "the CPU guard's duration");
        }
    }

    /** Rejects a hang watchdog shorter than a second or longer than {@link SessionSpec#MAX_TIMEOUT} (null, none, is fine). */
    public static Duration checkHangAfter(Duration after, String what) {
        return checkHangAfter(after, what, null);
    }

    /** As {@link #checkHangAfter(Duration, String)}, echoing {@code given} as written. */
    public static Duration checkHangAfter(Duration after, String what, String given) {
        if (after != null && after.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidSpecException("hang", what + " needs at least 1 second of silence");
        }
        if (after != null && after.compareTo(SessionSpec.MAX_TIMEOUT) > 0) {
            throw new InvalidSpecException("hang", what + " must act within " + Durations.describe(SessionSpec.MAX_TIMEOUT)
                    + ", got " + SessionSpec.echo(given, Durations.describe(after)));
        }
        return after;
    }

    /** Rejects an RSS limit outside {@link #MIN_RSS_BYTES} to {@link #MAX_RSS_BYTES}. */
    public static long checkMaxRss(long bytes, String what) {
        return checkMaxRss(bytes, what, null);
    }

    /** As {@link #checkMaxRss(long, String)}, echoing {@code given} as written. */
    public static long checkMaxRss(long bytes, String what, String given) {
        if (bytes < MIN_RSS_BYTES || bytes > MAX_RSS_BYTES) {
            throw new InvalidSpecException("guards", what + " must be " + Sizes.format(MIN_RSS_BYTES) + " to "
                    + Sizes.format(MAX_RSS_BYTES) + ", got " + SessionSpec.echo(given, Sizes.formatExact(bytes)));
        }
        return bytes;
    }

    /** Rejects a CPU limit that is not a number above 0 and at most {@link #MAX_CPU_PERCENT}. */
    public static double checkMaxCpu(double percent, String what) {
        return checkMaxCpu(percent, what, null);
    }

    /** As {@link #checkMaxCpu(double, String)}, echoing {@code given} as written. */
    public static double checkMaxCpu(double percent, String what, String given) {
        if (!(percent > 0 && percent <= MAX_CPU_PERCENT)) {
            throw new InvalidSpecException("guards", what + " must be a percentage above 0 and at most "
                    + (long) MAX_CPU_PERCENT + " (100 is one core), got " + SessionSpec.echo(given, String.valueOf(percent)));
        }
        return percent;
    }

    /** Rejects a CPU guard window that is negative or longer than {@link SessionSpec#MAX_TIMEOUT}. */
    public static Duration checkCpuFor(Duration forAtLeast, String what) {
        return checkCpuFor(forAtLeast, what, null);
    }

    /** As {@link #checkCpuFor(Duration, String)}, echoing {@code given} as written. */
    public static Duration checkCpuFor(Duration forAtLeast, String what, String given) {
        if (forAtLeast != null && (forAtLeast.isNegative() || forAtLeast.compareTo(SessionSpec.MAX_TIMEOUT) > 0)) {
            throw new InvalidSpecException("guards", what + " must be 0 to " + Durations.describe(SessionSpec.MAX_TIMEOUT)
                    + ", got " + SessionSpec.echo(given, Durations.describe(forAtLeast)));
        }
        return forAtLeast;
    }
}
