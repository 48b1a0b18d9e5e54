package dev.runboard.session;

import com.fasterxml.jackson.annotation.JsonProperty;

/** What a session's whole process tree used over its life: peak resident memory and CPU time. */
public record ResourceTotals(
        @JsonProperty("peak_rss_bytes") long peakRssBytes,
        @JsonProperty("cpu_seconds") double cpuSeconds) {
}
