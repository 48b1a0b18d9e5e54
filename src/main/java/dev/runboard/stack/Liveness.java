package dev.runboard.stack;

import dev.runboard.process.WaitingSessions;
import dev.runboard.session.Session;
import dev.runboard.session.SessionEvent;
import dev.runboard.workspace.LivenessCheck;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A command's liveness probe ({@code liveness:}): from {@code initial_delay} on, every period; after
 * {@code failures} failed probes in a row the run is ended {@code failed} with a reason saying so, and
 * its restart policy decides what follows. Once failing, {@code success_threshold} passes in a row clear
 * the count. Beside readiness, on the same probe pool; never on the orchestration's thread.
 */
final class Liveness {
    private final Session session;
    private final LivenessCheck check;
    private final ReadinessProbe probe;
    private final WaitingSessions sessions;
    private final Predicate<Instant> restartFollows;
    private final Clock clock;
    private int failuresInARow;
    private int passesInARow;
    private boolean ended;
    private volatile ScheduledFuture<?> task;

    Liveness(Session session, LivenessCheck check, WaitingSessions sessions, Predicate<Instant> restartFollows, Clock clock) {
        this.session = session;
        this.check = check;
        this.probe = probeOf(check);
        this.sessions = sessions;
        this.restartFollows = restartFollows;
        this.clock = clock;
    }

    static ReadinessProbe probeOf(LivenessCheck c) {
        if (c.tcp() != null) {
            return new ReadinessProbe.Tcp(c.tcp().strip());
        }
        if (c.http() != null) {
            return new ReadinessProbe.Http(c.http(), c.status(), c.headers());
        }
        if (c.log() != null) {
            return new ReadinessProbe.Log(Pattern.compile(c.log()));
        }
        return new ReadinessProbe.Exec(c.exec());
    }

    void start(ScheduledExecutorService probes) {
        task = probes.scheduleWithFixedDelay(this::probeOnce, check.initialDelayOrDefault().toMillis(),
                check.periodOrDefault().toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop() {
        ScheduledFuture<?> t = task;
        if (t != null) {
            t.cancel(false);
        }
    }

    private synchronized void probeOnce() {
        if (ended || session.status().isTerminal()) {
            stop();
            return;
        }
        boolean ok;
        try {
            ok = probe.passes(session, check.timeoutOrDefault());
            String note = probe.takeNote();
            if (note != null) {
                sessions.note(session, null, new SessionEvent(clock.instant(), Readiness.PROBE, "liveness: " + note));
            }
        } catch (RuntimeException e) {
            ok = false;
        }
        if (ok) {
            passesInARow++;
            if (passesInARow >= check.successThresholdOrDefault()) {
                failuresInARow = 0;
            }
            return;
        }
        passesInARow = 0;
        failuresInARow++;
        if (failuresInARow >= check.failuresOrDefault()) {
            ended = true;
            Instant now = clock.instant();
            String why = "liveness: " + failuresInARow + " probe" + (failuresInARow == 1 ? "" : "s") + " failed in a row";
            sessions.note(session, null, new SessionEvent(now, Readiness.PROBE, why));
            sessions.fail(session, restartFollows.test(now) ? why + "; restarting" : why);
            stop();
        }
    }
}
