package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A probed stack session's readiness lives in its one state value with the probe's events: whoever
 * reads the state (a snapshot, the record written from it) sees the verdict and the event that
 * announced it together, and the verdict goes with the session through its start and its end.
 */
class SessionReadinessTest {
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);
    private static final StackLink PROBED = new StackLink("db", "runboard.yaml", "dev", Map.of(), 0, null, true);

    @Test
    void aProbedSessionIsNotReadyUntilItsProbePassesAndTheVerdictAndItsEventAreOneState() {
        Session db = waiting(PROBED);
        assertEquals(Boolean.FALSE, db.state().ready(), "waiting for its turn: not ready");

        db.started(4242L, 1L, T0);
        assertEquals(Boolean.FALSE, db.state().ready(), "running, its probe not passed yet");

        SessionEvent ready = new SessionEvent(T0.plusSeconds(2), "ready", "ready after 2s");
        db.noteReadiness(true, ready);
        SessionState now = db.state();
        assertEquals(Boolean.TRUE, now.ready());
        assertEquals(List.of(ready), now.events(), "the verdict's event is in the same value as the verdict");
        SessionSnapshot shown = db.snapshot(false);
        assertEquals(Boolean.TRUE, shown.ready());
        assertEquals(List.of(ready), shown.events());

        SessionEvent unhealthy = new SessionEvent(T0.plusSeconds(9), "unhealthy", "3 probes failed in a row");
        db.noteReadiness(false, unhealthy);
        assertEquals(Boolean.FALSE, db.state().ready());
        assertEquals(List.of(ready, unhealthy), db.state().events());
    }

    @Test
    void anEventWithoutAVerdictLeavesTheVerdictAsItWas() {
        Session db = waiting(PROBED);
        db.started(4242L, 1L, T0);
        db.noteReadiness(true, null);
        db.noteReadiness(null, new SessionEvent(T0.plusSeconds(1), "restart", "restarted after exit 1"));
        assertEquals(Boolean.TRUE, db.state().ready());
        assertEquals(1, db.state().events().size());
    }

    @Test
    void theEndKeepsTheLastVerdict() {
        Session db = waiting(PROBED);
        db.started(4242L, 1L, T0);
        db.noteReadiness(true, new SessionEvent(T0.plusSeconds(2), "ready", "ready after 2s"));
        SessionState.Ended ended = db.end(new SessionOutcome(SessionStatus.KILLED, T0.plusSeconds(5), null, "TERM", null,
                OutputPreview.EMPTY, null, null, null, null));
        assertEquals(Boolean.TRUE, ended.ready(), "a record of its end still says it had been ready");
        assertEquals(Boolean.TRUE, db.snapshot().ready());
    }

    @Test
    void aSessionWithoutAProbeHasNoReadiness() {
        Session plain = new Session("20261203-100000-abcdef", SessionSpec.shell("make").cwd(Path.of("/")).build(),
                null, CLOCK);
        plain.started(4242L, 1L, T0);
        assertNull(plain.state().ready());
        assertNull(plain.snapshot(false).ready());
    }

    @Test
    void aRebuiltSessionTakesTheVerdictItsRecordHeld() {
        Session rebuilt = Session.restore("20261203-100000-abcdef", SessionSpec.shell("db").cwd(Path.of("/")).build(),
                null, CLOCK, 4242L, 1L, T0, null, null);
        rebuilt.restoreStack(PROBED, Boolean.TRUE);
        assertEquals(Boolean.TRUE, rebuilt.state().ready());
        assertEquals(PROBED, rebuilt.stack());
    }

    private static Session waiting(StackLink link) {
        return Session.waiting("20261203-100000-abcdef", SessionSpec.shell("db").cwd(Path.of("/")).build(), null, CLOCK,
                link, SessionStatus.PENDING, "waiting for its turn");
    }
}
