package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import dev.runboard.testing.Gate;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 4's promise: kill -9 the runboard that manages sessions, and nothing is lost. The commands
 * keep running, a new runboard adopts them, and outputs and exit codes match a run with no crash.
 */
class CrashSurvivalTest {
    @TempDir
    Path crashDir;
    @TempDir
    Path referenceDir;

    @Test
    void sessionsSurviveKillDashNineAndAreAdoptedWithTheirRealOutcomes() throws Exception {
        // The reference: the same sessions in an engine that does not crash.
        Map<String, SessionSnapshot> reference = new HashMap<>();
        Gate.open(referenceDir, CrashingRunboard.GATE);
        try (EngineFixture ref = new EngineFixture(referenceDir)) {
            Map<String, Session> started = new LinkedHashMap<>();
            CrashingRunboard.specs(referenceDir).forEach((name, spec) -> started.put(name, ref.engine().start(spec)));
            for (var e : started.entrySet()) {
                if (e.getKey().equals("stubborn")) {
                    continue;
                }
                reference.put(e.getKey(), EngineFixture.awaitEnd(e.getValue()));
            }
        }

        // A runboard that manages the sessions, then dies by SIGKILL.
        long launched = System.nanoTime();
        String java = ProcessHandle.current().info().command().orElse("java");
        Process runboard = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CrashingRunboard.class.getName(), crashDir.toString()).redirectErrorStream(true).start();
        Map<String, String> ids = new LinkedHashMap<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(runboard.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null && !line.equals("ready"); ) {
                String[] w = line.split(" ");
                if (w.length == 2) {
                    ids.put(w[0], w[1]);
                }
            }
            assertEquals(6, ids.size(), "the crashing runboard started its sessions");
            runboard.destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye
            runboard.waitFor();
        }

        SessionStore store = new SessionStore(crashDir);
        Map<String, Long> pids = new HashMap<>();
        for (var e : ids.entrySet()) {
            pids.put(e.getKey(), store.load(e.getValue()).orElseThrow().pid());
        }
        OsProcesses os = OsProcesses.forThisMachine();
        for (String name : List.of("slow", "noisy", "stubborn")) {
            assertTrue(os.isAlive(pids.get(name)), name + " keeps running after runboard died");
        }
        // The deadline's own 4 s may have passed already when a loaded machine was slow to get here.
        if (Duration.ofNanos(System.nanoTime() - launched).compareTo(Duration.ofSeconds(3)) < 0) {
            assertTrue(os.isAlive(pids.get("deadline")), "deadline keeps running after runboard died");
        }
        // Let the failing one end while no runboard is running: its exit code must still be known.
        Gate.open(crashDir, CrashingRunboard.GATE);
        Await.until(Duration.ofSeconds(10), "the failing session to end unwatched", () -> !os.isAlive(pids.get("failing")));
        assertEquals(SessionStatus.RUNNING, store.load(ids.get("failing")).orElseThrow().status(), "nobody recorded its end yet");

        try (EngineFixture next = new EngineFixture(crashDir)) {
            List<String> warnings = next.engine().loadHistory();
            assertEquals(List.of(), warnings);
            Map<String, Session> adopted = new HashMap<>();
            for (var e : ids.entrySet()) {
                adopted.put(e.getKey(), next.engine().find(e.getValue()).orElseThrow());
            }
            assertTrue(next.engine().managesHere(adopted.get("slow")), "a live session is adopted");
            assertEquals(SessionStatus.RUNNING, adopted.get("slow").status());

            KillReport kill = next.engine().kill(adopted.get("stubborn"), Signal.TERM, Duration.ofMillis(500)).get();
            assertEquals(List.of(), kill.survivors(), "an adopted tree is killable as a tree");
            assertTrue(kill.escalatedToKill());

            for (String name : List.of("quick", "failing", "slow", "noisy", "deadline")) {
                SessionSnapshot got = EngineFixture.awaitEnd(adopted.get(name));
                SessionSnapshot want = reference.get(name);
                assertEquals(want.status(), got.status(), name);
                assertEquals(want.exitCode(), got.exitCode(), name);
                assertEquals(want.signal(), got.signal(), name);
                assertArrayEquals(fullOutput(want), fullOutput(got), name + " output is byte-identical to the run without a crash");
            }
            SessionSnapshot deadline = adopted.get("deadline").snapshot();
            assertEquals(SessionStatus.TIMEOUT, deadline.status());
            assertTrue(deadline.elapsedSeconds() < 10, "the original deadline was enforced: " + deadline.elapsedSeconds());
            SessionSnapshot stubborn = EngineFixture.awaitEnd(adopted.get("stubborn"));
            assertEquals(SessionStatus.KILLED, stubborn.status());
            assertEquals("ignoring TERM\n", stubborn.output());

            // And the records on disk say the same, for the next runboard.
            SessionRecord failing = store.load(ids.get("failing")).orElseThrow();
            assertEquals(SessionStatus.FAILED, failing.status());
            assertEquals(3, failing.exitCode());
        }
    }

    @Test
    void anEndNobodyRecordedIsUnknownNotCompleted() throws Exception {
        SessionStore store = new SessionStore(crashDir);
        SessionSpec spec = SessionSpec.shell("true").cwd(crashDir).build();
        Session ghost = Session.restore("20200101-000000-abcdef", spec, store.file("20200101-000000-abcdef", SessionStore.CAPTURE),
                java.time.Clock.systemUTC(), 999_999_999L, 12345, java.time.Instant.now(), null, null);
        store.save(SessionRecord.of(ghost));
        Files.writeString(store.file(ghost.id(), SessionStore.CAPTURE), "partial output\n");
        try (EngineFixture next = new EngineFixture(crashDir)) {
            next.engine().loadHistory();
            SessionSnapshot s = EngineFixture.awaitEnd(next.engine().find(ghost.id()).orElseThrow());
            assertEquals(SessionStatus.UNKNOWN, s.status());
            assertNull(s.exitCode());
            assertEquals("ended while runboard was not running; exit status unknown", s.reason());
            assertEquals("partial output\n", s.output());
        }
    }

    private static byte[] fullOutput(SessionSnapshot s) throws Exception {
        return s.artifact() != null ? Files.readAllBytes(Path.of(s.artifact())) : s.output().getBytes(StandardCharsets.UTF_8);
    }
}
