package dev.runboard.session;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Duration;
import java.util.List;

/**
 * What runboard watches in a running session besides its exit: output rules, a hang watchdog
 * ("no output for {@code hangAfter}" → warn or kill) and runaway guards (RSS above
 * {@code maxRssBytes}, or CPU above {@code maxCpuPercent} for {@code cpuFor}, → kill).
 * Every field is optional; {@link #NONE} watches nothing.
 */
public record WatchSpec(
        @JsonProperty("rules") List<OutputRule> rules,
        @JsonProperty("hang_after") Duration hangAfter,
        @JsonProperty("hang_action") HangAction hangAction,
        @JsonProperty("max_rss_bytes") Long maxRssBytes,
        @JsonProperty("max_cpu_percent") Double maxCpuPercent,
        @JsonProperty("cpu_for") Duration cpuFor) {

    public static final WatchSpec NONE = new WatchSpec(List.of(), null, null, null, null, null);

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

    @JsonIgnore
    public boolean isEmpty() {
        return rules.isEmpty() && hangAfter == null && maxRssBytes == null && maxCpuPercent == null;
    }

    /** Rejects settings that cannot work, naming the field. */
    public void validate() {
        rules.forEach(OutputRule::compile);
        if (hangAfter != null && hangAfter.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidSpecException("hang", "the hang watchdog needs at least 1 second of silence");
        }
        if (maxRssBytes != null && maxRssBytes <= 0) {
            throw new InvalidSpecException("guards", "the RSS limit must be positive");
        }
        if (maxCpuPercent != null && (maxCpuPercent <= 0 || cpuFor == null || cpuFor.isNegative())) {
            throw new InvalidSpecException("guards", "the CPU guard needs a positive percentage and a duration");
        }
    }
}
