package dev.runboard.stack;

import dev.runboard.process.WaitingSessions;
import dev.runboard.session.Durations;
import dev.runboard.session.Session;
import dev.runboard.session.SessionEvent;
import dev.runboard.workspace.ReadyCheck;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Probes one running session every period: {@code ready: false} until the probe first passes
 * (or {@code timeout} runs out: dependants waiting for it are then skipped), then {@code ready:
 * true}; after that, {@code failures} failed probes in a row make it unhealthy ({@code ready}
 * false again, a {@code probe} event), and with {@code restart: always} it is ended as failed so
 * its restart policy starts it again. Runs on the probe pool, never on the orchestration's thread.
 */
final class Readiness {
    static final String PROBE = "probe";

    private final Session session;
    private final ReadyCheck check;
    private final ReadinessProbe probe;
    private final WaitingSessions sessions;
    private final boolean restartWhenUnhealthy;
    /** Whether a failure at that time would be followed by another run (so a reason may say "restarting"). */
    private final java.util.function.Predicate<Instant> restartFollows;
    private final Clock clock;
    private final Instant since;
    private volatile boolean everReady;
    private volatile boolean timedOut;
    private boolean unhealthy;
    private int failuresInARow;
    private volatile ScheduledFuture<?> task;

    Readiness(Session session, ReadyCheck check, WaitingSessions sessions, boolean restartWhenUnhealthy,
              java.util.function.Predicate<Instant> restartFollows, Clock clock) {
        this.session = session;
        this.check = check;
        this.probe = ReadinessProbe.of(check);
        this.sessions = sessions;
        this.restartWhenUnhealthy = restartWhenUnhealthy;
        this.restartFollows = restartFollows;
        this.clock = clock;
        this.since = clock.instant();
    }

    void start(ScheduledExecutorService probes) {
        long period = check.periodOrDefault().toMillis();
        task = probes.scheduleWithFixedDelay(this::probeOnce, 0, period, TimeUnit.MILLISECONDS);
    }

    void stop() {
        ScheduledFuture<?> t = task;
        if (t != null) {
            t.cancel(false);
        }
    }

    /** Whether the probe has passed at least once (the {@code ready} condition met for good). */
    boolean everReady() {
        return everReady;
    }

    /** Whether it did not become ready within its timeout: a dependency on its readiness can no longer be met. */
    boolean timedOut() {
        return timedOut;
    }

    /**
     * Once the session has ended: a log probe that has not passed reads what was written since its last
     * look, so a ready line printed just before the end counts (the periodic probe stops with the end).
     * Other probes ask a process that is gone: no last look.
     */
    void lastLook() {
        if (everReady || !(probe instanceof ReadinessProbe.Log)) {
            return;
        }
        boolean ok;
        try {
            ok = probe.passes(session, check.periodOrDefault());
        } catch (RuntimeException e) {
            ok = false;
        }
        Instant now = clock.instant();
        synchronized (this) {
            if (ok && !everReady) {
                everReady = true;
                sessions.note(session, true, event(now, "ready after " + Durations.format(Duration.between(since, now))
                        + " (its ready line, read as it ended)"));
            }
        }
    }

    private void probeOnce() {
        if (session.status().isTerminal()) {
            stop();
            return;
        }
        boolean ok;
        try {
            ok = probe.passes(session, check.periodOrDefault());
            String note = probe.takeNote();
            if (note != null) {
                sessions.note(session, null, event(clock.instant(), note));
            }
        } catch (RuntimeException e) {
            ok = false;
        }
        // Each event is stamped with the probe's verdict time, taken before the verdict is published:
        // the orchestrator may start a dependant the moment everReady reads true, and that dependant's
        // start must never come before the "ready" it waited for (it did, when this thread was
        // descheduled between publishing the flag and reading the clock).
        Instant now = clock.instant();
        synchronized (this) {
            if (!everReady) {
                Duration waited = Duration.between(since, now);
                if (ok) {
                    everReady = true;
                    sessions.note(session, true, event(now, "ready after " + Durations.format(waited)));
                } else if (!timedOut && waited.compareTo(check.timeoutOrDefault()) > 0) {
                    timedOut = true;
                    sessions.note(session, null, event(now, "not ready within " + Durations.format(check.timeoutOrDefault())));
                }
                return;
            }
            if (ok) {
                failuresInARow = 0;
                if (unhealthy) {
                    unhealthy = false;
                    sessions.note(session, true, event(now, "healthy again"));
                }
                return;
            }
            failuresInARow++;
            if (failuresInARow == check.failuresOrDefault()) {
                unhealthy = true;
                String why = "unhealthy: " + failuresInARow + " probe" + (failuresInARow == 1 ? "" : "s") + " failed in a row";
                sessions.note(session, false, event(now, why));
                if (restartWhenUnhealthy) {
                    sessions.fail(session, restartFollows.test(now) ? why + "; restarting" : why);
                }
            }
        }
    }

    private static SessionEvent event(Instant at, String message) {
        return new SessionEvent(at, PROBE, message);
    }
}
