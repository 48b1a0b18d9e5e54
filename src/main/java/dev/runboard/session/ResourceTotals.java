package dev.runboard.session;

/** What a session's whole process tree used over its life: peak resident memory and CPU time. */
public record ResourceTotals(long peakRssBytes, double cpuSeconds) {
}
