package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.KillReport;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.testing.ShortDeadlines;
import dev.runboard.testing.Stress;
import dev.runboard.testing.TestScale;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wrapper owns the session's tree (a child subreaper) and holds the one kill: a descendant that
 * escapes by every means a process has (its own group, its own session, a double fork, a cleared
 * environment, a new name) still dies by the deadline and by a kill, and the report lists exactly
 * what /proc still shows. A command that exits leaving processes behind keeps its own status, lists
 * them as lingering, and Kill on the ended session ends them. A deadline that meets a command which
 * ended by itself leaves its status alone.
 */
class TreeOwnershipTest {
    private static final List<String> ESCAPEES = List.of("plain", "group", "session", "ghost", "orphan");
    private static final Duration GRACE = Duration.ofMillis(300);

    @TempDir
    Path dataDir;
    EngineFixture fx;
    Path script;

    @BeforeEach
    void setUp() throws Exception {
        fx = new EngineFixture(dataDir);
        script = dataDir.resolve("escapees.sh");
        try (var in = getClass().getResourceAsStream("/trees/escapees.sh")) {
            Files.copy(in, script);
        }
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void everyEscapeeDiesByAKillAndTheReportSaysWhatProcShows() throws Exception {
        Session s = fx.engine().start(fx.sh("sh " + script).grace(GRACE).build());
        Map<String, long[]> escapees = awaitEscapees(s);

        KillReport report = fx.engine().kill(s, Signal.TERM, GRACE).get();

        assertEquals(SessionStatus.KILLED, EngineFixture.awaitEnd(s).status());
        assertAllGone(escapees);
        assertEquals(List.of(), report.survivors(), report.summary());
        List<Long> signalled = report.signalled().stream().map(ProcessRef::pid).toList();
        List<Long> killed = report.killedAfterGrace().stream().map(ProcessRef::pid).toList();
        for (var e : escapees.entrySet()) {
            assertTrue(signalled.contains(e.getValue()[0]), e.getKey() + " got the TERM: " + report.signalled());
            assertTrue(killed.contains(e.getValue()[0]), e.getKey() + " ignored it and got KILL after the grace: " + report);
        }
        assertTrue(report.sweptByTag().stream().map(ProcessRef::pid).toList().containsAll(List.of(
                escapees.get("group")[0], escapees.get("session")[0], escapees.get("ghost")[0])),
                "those outside the command's group are listed as escaped: " + report.sweptByTag());
    }

    @Test
    void everyEscapeeDiesAtTheDeadline() throws Exception {
        Session s = fx.engine().start(fx.sh("sh " + script).timeout(Duration.ofSeconds(3)).grace(GRACE).build());
        Map<String, long[]> escapees = awaitEscapees(s);

        SessionSnapshot last = EngineFixture.awaitEnd(s);

        assertEquals(SessionStatus.TIMEOUT, last.status(), last.reason());
        assertAllGone(escapees);
        assertNotNull(last.killReport(), "the wrapper's deadline kill is the session's report");
        assertEquals(List.of(), last.killReport().survivors());
        assertTrue(last.killReport().escalatedToKill(), last.killReport().summary());
        assertTrue(last.elapsed().compareTo(Duration.ofSeconds(3)) >= 0, "not before its deadline: " + last.elapsed());
    }

    @Test
    void aCommandThatExitsLeavingATermIgnorerKeepsItsStatusListsItAndKillEndsIt() throws Exception {
        Session s = fx.engine().start(fx.sh("perl -e '$SIG{TERM} = \"IGNORE\"; sleep 600' & echo $! > left.pid; echo done")
                .grace(GRACE).build());
        SessionSnapshot ended = EngineFixture.awaitEnd(s);
        long left = Await.pidFile(dataDir.resolve("left.pid"), EngineFixture.WAIT);

        assertEquals(SessionStatus.COMPLETED, ended.status(), "the status is the command's: " + ended.reason());
        assertEquals(0, ended.exitCode());
        assertEquals(List.of(left), ended.lingering().stream().map(ProcessRef::pid).toList(),
                "its snapshot lists what the wrapper still holds");
        assertTrue(fx.engine().os().isAlive(left));

        KillReport report = fx.engine().kill(s, Signal.TERM, GRACE).get();

        assertEquals(List.of(left), report.killedAfterGrace().stream().map(ProcessRef::pid).toList(), report.summary());
        assertEquals(List.of(), report.survivors());
        Await.until(EngineFixture.WAIT, "the lingering process to leave /proc", () -> !fx.engine().os().isAlive(left));
        Await.until(EngineFixture.WAIT, "the lingering list to empty", () -> s.snapshot().lingering().isEmpty());
        assertEquals(SessionStatus.COMPLETED, s.status(), "a kill after the end does not change how it ended");
        assertTrue(ended.killReport() == null && s.snapshot().killReport() == null);
    }

    @Test
    @Stress
    void aDeadlineMeetingACommandThatEndedByItselfLeavesItsStatusAlone() throws Exception {
        Duration deadline = Duration.ofMillis(300);
        int rounds = TestScale.races(150);
        int parallel = 10;
        int timedOut = 0;
        try (ShortDeadlines floor = ShortDeadlines.allow(deadline)) {
            for (int batch = 0; batch * parallel < rounds; batch++) {
                // Ten at once, each sleeping a little less than its deadline (which counts from the wrapper's
                // launch; the command starts a few tens of milliseconds later, more on a busy machine): the
                // command's own end and the wrapper's deadline meet within milliseconds, one side or the other.
                List<CompletableFuture<SessionSnapshot>> ends = new ArrayList<>();
                for (int i = 0; i < parallel; i++) {
                    double sleep = (deadline.toMillis() - 100 + 10 * i) / 1000.0;
                    Session s = fx.engine().start(fx.sh("exec sleep " + sleep).timeout(deadline).grace(GRACE).build());
                    CompletableFuture<SessionSnapshot> end = new CompletableFuture<>();
                    s.addListener(end::complete);
                    ends.add(end);
                }
                for (CompletableFuture<SessionSnapshot> end : ends) {
                    SessionSnapshot last = end.get(EngineFixture.WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
                    String round = "batch " + batch + ": " + last.status().word() + " exit " + last.exitCode()
                            + " signal " + last.signal();
                    if (last.status() == SessionStatus.COMPLETED) {
                        assertEquals(0, last.exitCode(), round);
                    } else {
                        timedOut++;
                        assertEquals(SessionStatus.TIMEOUT, last.status(), round);
                        // A command that exited before the first signal would read exit 0 and no signal here.
                        assertNotEquals(Integer.valueOf(0), last.exitCode(), round);
                        assertEquals("TERM", last.signal(), round);
                    }
                }
            }
        }
        int sessions = (rounds + parallel - 1) / parallel * parallel;
        System.out.println("TreeOwnershipTest: " + timedOut + " of " + sessions + " sessions timed out, the rest ended by themselves");
    }

    /** The escapees' pids and start times, once each has written its pid; each is checked to have escaped as named. */
    private Map<String, long[]> awaitEscapees(Session s) throws Exception {
        Map<String, long[]> out = new LinkedHashMap<>();
        for (String name : ESCAPEES) {
            long pid = Await.pidFile(dataDir.resolve("escapee-" + name + ".pid"), EngineFixture.WAIT);
            Await.until(EngineFixture.WAIT, name + " to settle", () -> LinuxProcesses.readStat(pid)
                    .map(p -> p.state() == 'S').orElse(false));
            out.put(name, new long[] {pid, fx.engine().os().startTicks(pid)});
        }
        long group = fx.engine().commandGroup(s);
        assertNotEquals(s.pid().longValue(), group, "the command leads its own group below the wrapper");
        assertNotEquals(group, pgid(out.get("group")[0]), "group left the command's group");
        assertNotEquals(group, pgid(out.get("session")[0]), "session left it too");
        long ghost = out.get("ghost")[0];
        assertFalse(fx.engine().os().hasEnvEntry(ghost, s.tag()), "ghost cleared its environment");
        assertTrue(fx.engine().os().commandLine(ghost).startsWith("innocent"), fx.engine().os().commandLine(ghost));
        // Its middle process exits right after the second fork: on a loaded machine a moment after ghost settled.
        Await.until(EngineFixture.WAIT, "ghost, orphaned by its double fork, re-parented to the wrapper, not to init",
                () -> LinuxProcesses.readStat(ghost).map(p -> p.ppid() == s.pid()).orElse(false));
        assertFalse(fx.engine().os().hasEnvEntry(out.get("orphan")[0], s.tag()), "orphan cleared its environment");
        return out;
    }

    private void assertAllGone(Map<String, long[]> escapees) {
        for (var e : escapees.entrySet()) {
            long[] p = e.getValue();
            Await.until(Duration.ofSeconds(5), e.getKey() + " gone from /proc", () -> !fx.engine().os().isAlive(p[0], p[1]));
        }
    }

    private static long pgid(long pid) {
        return LinuxProcesses.readStat(pid).orElseThrow().pgid();
    }
}
