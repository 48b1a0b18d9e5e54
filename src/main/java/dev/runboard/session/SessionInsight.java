package dev.runboard.session;

import java.time.Instant;
import java.util.List;

/**
 * What the monitor knows about one session at its last pass: resources now and over its life,
 * its process tree, and what the watchdog, guards and output rules noticed. Immutable: the
 * window's poller hands it to the FX thread as is.
 */
public record SessionInsight(
        String sessionId,
        Instant sampledAt,
        double cpuPercent,
        long rssBytes,
        double cpuSeconds,
        long peakRssBytes,
        ProcessTreeSnapshot tree,
        List<ResourcePoint> history,
        List<Event> events,
        boolean hung) {

    /**
     * Something worth telling the user: a rule matched, the session went quiet, a guard fired.
     * {@code rule} is the matched rule's pattern for rule events, else null.
     */
    public record Event(long seq, Instant at, Kind kind, String message, String rule) {
        public Event(long seq, Instant at, Kind kind, String message) {
            this(seq, at, kind, message, null);
        }
    }

    /** OUTPUT: something about the capture itself (max_output began trimming it, or cannot). */
    public enum Kind { RULE_MATCH, NOTIFY, HANG, GUARD, INFO, OUTPUT }

    public static SessionInsight empty(String sessionId) {
        return new SessionInsight(sessionId, null, 0, 0, 0, 0, ProcessTreeSnapshot.EMPTY, List.of(), List.of(), false);
    }

    public SessionInsight {
        history = List.copyOf(history);
        events = List.copyOf(events);
    }

    /** Every live process of the tree is stopped (SIGSTOP): shown as {@code paused}. */
    public boolean paused() {
        return tree.allStopped();
    }

    public int processCount() {
        return tree.nodes().size();
    }
}
