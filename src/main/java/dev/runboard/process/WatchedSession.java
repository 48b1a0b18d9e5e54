package dev.runboard.process;

import dev.runboard.session.OutputRule;
import dev.runboard.session.OutputTrim;
import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.session.ResourcePoint;
import dev.runboard.session.Session;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Sizes;
import dev.runboard.session.WatchSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link SessionMonitor} knows of one running session between its passes, and what it does
 * about it: the output rules' matches, the hang watchdog, the runaway guards, pausing as /proc
 * shows it, and the resource history, published as a {@link SessionInsight}. Not thread-safe: the
 * monitor holds this object's lock around every call.
 */
final class WatchedSession {
    private static final int MAX_EVENTS = 200;
    private static final int HISTORY_POINTS = 600;
    /** A NOTIFY rule that keeps matching is recorded again at most this often (a flood is one event per period). */
    static final Duration NOTIFY_REPEAT = Duration.ofSeconds(10);

    /** What a watched session needs of its monitor. */
    interface Monitor {
        Instant now();

        /** The time between passes. */
        Duration period();

        /** Whether the session's command is still running as far as the monitor knows (it has not been told of its exit). */
        boolean isWatching(Session session);

        /** A new event of the session, numbered in the monitor's sequence and passed on to its sink. */
        SessionInsight.Event event(Session session, SessionInsight.Kind kind, String message, String rule);

        /** Ends the session's tree with a status and a reason (the engine's tree kill). */
        void end(Session session, SessionStatus why, String reason);
    }

    private final Monitor monitor;
    private final Session session;
    private final WatchSpec spec;
    private final RuleScanner rules;
    private final ResourceHistory history = new ResourceHistory(HISTORY_POINTS);
    private final List<SessionInsight.Event> events = new ArrayList<>();
    /** When each NOTIFY rule (by index) was last recorded. */
    private final Map<Integer, Instant> notified = new HashMap<>();
    private final RuleScanner.Matches onMatch = new RuleScanner.Matches() {
        @Override
        public void skipped(String message) {
            event(SessionInsight.Kind.INFO, message);
        }

        @Override
        public void matched(int index, OutputRule rule, String line) {
            onRule(index, rule, line);
        }
    };
    private boolean ended;
    private boolean trimmingSaid;
    private boolean trimUnavailableSaid;
    /** The command's process group, once known (0: not yet). */
    private long group;
    private ResourceSampler.Usage usage;
    private long peakRss;
    private double cpuSeconds;
    private long lastSize;
    private Instant lastSizeAt;
    private Instant lastOutputAt;
    private boolean hung;
    private Instant cpuOverSince;
    /** When STOP or CONT was last sent through runboard (null if never). */
    private Instant pausedBySignalAt;

    WatchedSession(Monitor monitor, Session session, Instant startedAt) {
        this.monitor = monitor;
        this.session = session;
        this.spec = session.spec().watch();
        this.rules = new RuleScanner(spec.rules());
        this.lastOutputAt = startedAt;
        this.lastSizeAt = startedAt;
    }

    Session session() {
        return session;
    }

    /** The command's process group, asked once it is known (the wrapper names it right after its start). */
    long group(java.util.function.ToLongFunction<Session> groupOf) {
        if (group == 0) {
            long g = groupOf.applyAsLong(session);
            if (g != session.pid()) {
                group = g;
            }
            return g;
        }
        return group;
    }

    /** STOP or CONT was just sent through runboard: the session's status already says so (see {@link #update}). */
    void pausedBySignal(Instant at) {
        pausedBySignalAt = at;
    }

    /** The command has exited: its last output is scanned (a FAIL rule matching the final lines still fails it). */
    void exited() {
        rules.scan(session.captureFile(), true, onMatch);
        watchTrim();
        usage = null; // the tree is gone; peak RSS, CPU time and the history stay
    }

    /** One pass: the tree's usage as sampled now (null when not sampled: gone, or remote). */
    void update(ResourceSampler.Usage u, Instant at) {
        long size = captureSize();
        double seconds = Math.max(1e-3, Duration.between(lastSizeAt, at).toNanos() / 1e9);
        double rate = Math.max(0, size - lastSize) / seconds;
        boolean paused = u != null && u.tree().allStopped();
        // A tree stopped from outside runboard reads paused too; a look at /proc taken as STOP or
        // CONT was being sent may predate its effect, so for one period the signal's word stands.
        if (u != null && (pausedBySignalAt == null || Duration.between(pausedBySignalAt, at).compareTo(monitor.period()) > 0)) {
            session.markPaused(paused);
        }
        if (paused) {
            lastOutputAt = at; // a paused session is quiet on purpose: the watchdog does not count it
            hung = false;
        } else if (Session.DISCONNECTED.equals(session.connection())
                || session.slurm() != null && (session.slurm().isPending() || !session.slurmCommandStarted())) {
            // A remote session's output cannot arrive while its host is out of reach: the silence is
            // the network's, not the command's. The watchdog counts again from the reconnection. Nor
            // can a Slurm job's while Slurm holds it, or until its step has started the command.
            lastOutputAt = at;
        } else if (size != lastSize) {
            lastOutputAt = writtenAt(at);
            hung = false;
        }
        lastSize = size;
        lastSizeAt = at;
        if (u != null) {
            usage = u;
            peakRss = Math.max(peakRss, u.rssBytes());
            cpuSeconds = Math.max(cpuSeconds, u.cpuSeconds());
            history.add(new ResourcePoint(at, u.cpuPercent(), u.rssBytes(), rate));
        }
        rules.scan(session.captureFile(), false, onMatch);
        watchTrim();
        watchHang(at);
        guard(u, at);
    }

    private void watchHang(Instant at) {
        Duration limit = spec.hangAfter();
        if (limit == null || ended || hung || Duration.between(lastOutputAt, at).compareTo(limit) < 0) {
            return;
        }
        hung = true;
        String what = "no output for " + SessionFinisher.seconds(limit);
        if (spec.hangAction() == WatchSpec.HangAction.KILL) {
            event(SessionInsight.Kind.HANG, what + ": killing the tree (hang watchdog)");
            end(SessionStatus.KILLED, what + " (hang watchdog)");
        } else {
            event(SessionInsight.Kind.HANG, what + " (hang watchdog)");
        }
    }

    private void guard(ResourceSampler.Usage u, Instant at) {
        if (u == null || ended) {
            return;
        }
        Long maxRss = spec.maxRssBytes();
        if (maxRss != null && u.rssBytes() > maxRss) {
            // In the binary units the limit was given in (--max-rss 50M reads "50 MiB", not "52 MB").
            String why = "runaway guard: RSS " + Sizes.format(u.rssBytes()) + " exceeded the limit of " + Sizes.format(maxRss);
            event(SessionInsight.Kind.GUARD, why);
            end(SessionStatus.KILLED, why);
            return;
        }
        Double maxCpu = spec.maxCpuPercent();
        if (maxCpu == null) {
            return;
        }
        if (u.cpuPercent() <= maxCpu) {
            cpuOverSince = null;
        } else if (cpuOverSince == null) {
            cpuOverSince = at;
        }
        if (cpuOverSince != null && Duration.between(cpuOverSince, at).compareTo(spec.cpuFor()) >= 0) {
            String why = String.format(java.util.Locale.ROOT, "runaway guard: CPU above %.0f %% for %s (last %.0f %%)",
                    maxCpu, SessionFinisher.seconds(spec.cpuFor()), u.cpuPercent());
            event(SessionInsight.Kind.GUARD, why);
            end(SessionStatus.KILLED, why);
        }
    }

    private void onRule(int index, OutputRule rule, String text) {
        switch (rule.action()) {
            case FAIL -> {
                if (!ended) {
                    String why = "output matched rule /" + rule.pattern() + "/: " + abbreviate(text);
                    event(SessionInsight.Kind.RULE_MATCH, why, rule.pattern());
                    end(SessionStatus.FAILED, why);
                }
            }
            case NOTIFY -> {
                Instant now = monitor.now();
                Instant last = notified.get(index);
                if (last == null || !now.isBefore(last.plus(NOTIFY_REPEAT))) {
                    notified.put(index, now);
                    event(SessionInsight.Kind.NOTIFY, "/" + rule.pattern() + "/ matched: " + abbreviate(text), rule.pattern());
                }
            }
            case HIGHLIGHT -> {
                // the tail highlights matches itself from the spec's rules
            }
        }
    }

    private void end(SessionStatus why, String reason) {
        ended = true;
        if (session.status().isLive() && session.requestedEnd() == null) {
            if (session.captureFile() != null && !monitor.isWatching(session)) {
                session.requestEnd(why, reason); // already gone: only the outcome changes
            } else {
                monitor.end(session, why, reason);
            }
        }
    }

    private void event(SessionInsight.Kind kind, String message) {
        event(kind, message, null);
    }

    private void event(SessionInsight.Kind kind, String message, String rule) {
        events.add(monitor.event(session, kind, message, rule));
        if (events.size() > MAX_EVENTS) {
            events.remove(0);
        }
    }

    /**
     * When the output last grew: the capture's modification time, which can be up to a period
     * earlier than this pass (so "no output for 2 s" is measured from the output, not from
     * the pass that saw it); never before the last output already seen (output written before
     * the watch began counts from its start); this pass's time when the file's clock disagrees
     * with ours (a test's clock).
     */
    private Instant writtenAt(Instant at) {
        try {
            Instant modified = Files.getLastModifiedTime(session.captureFile()).toInstant();
            if (modified.isAfter(at) || Duration.between(modified, at).compareTo(monitor.period().multipliedBy(3)) > 0) {
                return at;
            }
            return modified.isBefore(lastOutputAt) ? lastOutputAt : modified;
        } catch (IOException | RuntimeException e) {
            return at;
        }
    }

    /** The output's size, counting what max_output dropped from the capture's start (so growth is never negative). */
    private long captureSize() {
        try {
            Path capture = session.captureFile();
            return capture == null ? lastSize : Files.size(capture) + OutputTrim.of(capture).dropped();
        } catch (IOException e) {
            return lastSize;
        }
    }

    /**
     * Says once that the wrapper began dropping the oldest output (max_output), and once that it cannot
     * (the file system, or a writer that does not append): an {@code output} event each. Once per
     * session, also across an adoption: what its events already say is not said again.
     */
    private void watchTrim() {
        Long bound = session.spec().maxOutputBytes();
        if (bound == null || session.captureFile() == null || trimUnavailableSaid) {
            return;
        }
        OutputTrim trim = OutputTrim.of(session.captureFile());
        if (trim.trimmed() && !trimmingSaid) {
            trimmingSaid = true;
            String message = TRIMMING + " " + Sizes.format(bound) + " (max_output): the oldest output is dropped from the"
                    + " capture's start as the command writes";
            if (!alreadySaid(TRIMMING)) {
                event(SessionInsight.Kind.OUTPUT, message);
            }
        }
        if (trim.unavailable() != null) {
            trimUnavailableSaid = true;
            if (!alreadySaid(UNAVAILABLE)) {
                event(SessionInsight.Kind.OUTPUT, UNAVAILABLE + ": " + trim.unavailable() + "; the rest of the output is kept whole");
            }
        }
    }

    private static final String TRIMMING = "output trimmed to";
    private static final String UNAVAILABLE = "output cannot be trimmed to max_output";

    private boolean alreadySaid(String prefix) {
        return session.state().events().stream()
                .anyMatch(e -> SessionEvent.OUTPUT.equals(e.kind()) && e.message().startsWith(prefix));
    }

    SessionInsight publish(Instant at) {
        ResourceSampler.Usage u = usage;
        return new SessionInsight(session.id(), at, u == null ? 0 : u.cpuPercent(), u == null ? 0 : u.rssBytes(),
                cpuSeconds, peakRss, u == null ? ProcessTreeSnapshot.EMPTY : u.tree(), history.points(),
                events, hung);
    }

    private static String abbreviate(String s) {
        String t = s.strip();
        return t.length() <= 160 ? t : t.substring(0, 157) + "...";
    }
}
