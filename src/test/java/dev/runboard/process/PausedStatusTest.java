package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.store.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stopped session's status is {@code paused} (the Contract's word), whoever stopped it, and {@code running} again on CONT. */
class PausedStatusTest {
    @TempDir
    Path dataDir;
    EngineFixture fx;

    @BeforeEach
    void setUp() {
        fx = new EngineFixture(dataDir);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void stopPausesAndContResumesInTheStatusAndTheJson() throws Exception {
        Session s = fx.engine().start(fx.sh("sleep 600 & wait").build());
        assertTrue(fx.engine().signal(s, Signal.STOP));
        assertEquals(SessionStatus.PAUSED, s.status(), "paused as soon as STOP is sent");
        long command = fx.engine().commandGroup(s); // its group's leader, below the wrapper (which is never stopped)
        Await.until(EngineFixture.WAIT, "the tree to stop", () -> state(command) == 'T');
        SessionSnapshot paused = s.snapshot();
        assertEquals("paused", Json.mapper().valueToTree(paused).get("status").asText());
        assertTrue(paused.isRunning(), "a paused session is still live: it can be killed, resumed, signalled");

        assertTrue(fx.engine().signal(s, Signal.CONT));
        assertEquals(SessionStatus.RUNNING, s.status());
        Await.until(EngineFixture.WAIT, "the tree to run again", () -> state(command) != 'T');
        // The monitor's next look at /proc agrees: it stays running.
        java.time.Instant resumed = java.time.Instant.now();
        Await.until(EngineFixture.WAIT, "a monitor pass after CONT", () -> fx.engine().insight(s).sampledAt() != null
                && fx.engine().insight(s).sampledAt().isAfter(resumed));
        assertEquals(SessionStatus.RUNNING, s.status());
    }

    @Test
    void aTreeStoppedOutsideRunboardReadsPausedAndAPausedSessionCanBeKilled() throws Exception {
        Session s = fx.engine().start(fx.sh("sleep 600").build());
        // Until the wrapper has named its command, the command's group is not known (the wrapper's pid stands in):
        // under load a STOP sent that early went to the wrapper's group and the command ran on, never paused.
        Await.until(EngineFixture.WAIT, "the wrapper to name its command", () -> fx.engine().commandGroup(s) != s.pid());
        long group = fx.engine().commandGroup(s);
        // STOP to the command's group, as ps shows it, again at each look until its leader reads stopped (state T):
        // on a loaded CI a single STOP once left the command running for the whole 30 s (seen twice, cause not
        // found: the kernel took the signal); what is tested here is what runboard shows of a stopped tree.
        boolean[] delivered = {false};
        Await.until(EngineFixture.WAIT, () -> "the command to stop (group " + group + ", STOP delivered: " + delivered[0]
                + ", its members now: " + members(group) + ")", () -> {
            delivered[0] = OsProcesses.forThisMachine().signalGroup(group, Signal.STOP);
            return state(group) == 'T';
        });
        try {
            Await.until(EngineFixture.WAIT, "the monitor to see state T", () -> s.status() == SessionStatus.PAUSED);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the monitor's last look at the tree: "
                    + fx.engine().insight(s).tree() + ", sampled at " + fx.engine().insight(s).sampledAt(), e);
        }

        fx.engine().kill(s, Signal.TERM, java.time.Duration.ofSeconds(1)).get();
        SessionSnapshot end = EngineFixture.awaitEnd(s);
        assertEquals(SessionStatus.KILLED, end.status());
    }

    /** The processes of group {@code pgid} as pid, state and command (seen once: STOP to the group for 30 s and no T). */
    private static String members(long pgid) {
        StringBuilder out = new StringBuilder();
        for (ProcInfo p : OsProcesses.forThisMachine().snapshot().all()) {
            if (p.pgid() == pgid) {
                out.append(p.pid()).append(' ').append(p.state()).append(' ').append(OsProcesses.forThisMachine().commandLine(p.pid())).append("; ");
            }
        }
        return out.length() == 0 ? "none" : out.toString();
    }

    private static char state(long pid) {
        return LinuxProcesses.readStat(pid).map(ProcInfo::state).orElse('?');
    }
}
