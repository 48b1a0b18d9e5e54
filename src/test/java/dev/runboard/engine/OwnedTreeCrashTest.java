package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.process.LinuxProcesses;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.session.KillReport;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import dev.runboard.store.SessionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wrapper owns the tree, so what happens to a session does not depend on its supervisor living:
 * {@code kill -9} of the supervisor during a kill's grace, during a pause, and after the session's
 * wrapper was itself killed; each session ends truthfully, and no process of it outlives its deadline
 * (or the kill's grace) by more than 3 s.
 */
@Tag("slow")
class OwnedTreeCrashTest {
    private static final Duration LATE = Duration.ofSeconds(3);
    private final OsProcesses os = OsProcesses.forThisMachine();

    @TempDir
    Path dataDir;

    private SessionSpec.Builder sh(String command) {
        return SessionSpec.shell(command).shell(Path.of("/bin/sh")).cwd(dataDir);
    }

    @Test
    void aKillWhoseSupervisorDiesDuringTheGraceStillEndsTheTreeAndIsRecordedKilled() throws Exception {
        Duration grace = Duration.ofSeconds(3);
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.client().start(sh("trap '' TERM; sleep 600 & echo $! > ignorer.pid; wait").grace(grace).build());
            long ignorer = Await.pidFile(dataDir.resolve("ignorer.pid"), Duration.ofSeconds(30));
            long ignorerStart = os.startTicks(ignorer);
            long supervisor = fx.supervisorPid();

            CompletableFuture<KillReport> kill = CompletableFuture.supplyAsync(() -> {
                try {
                    return fx.client().kill(id, Signal.TERM, grace);
                } catch (java.io.IOException e) {
                    return null; // its supervisor dies before it answers: expected
                }
            });
            Path request = dataDir.resolve("sessions").resolve(id).resolve(SessionStore.KILL_REQUEST);
            Await.until(Duration.ofSeconds(30), "the kill to be asked of the wrapper", () -> Files.exists(request));
            long askedAt = System.nanoTime();
            killDashNine(supervisor);

            // The wrapper goes on with the kill: the TERM-ignorer is gone by the grace's end, not by the next supervisor.
            Await.until(grace.plus(LATE), "the TERM-ignorer gone", () -> !os.isAlive(ignorer, ignorerStart));
            assertTrue(System.nanoTime() - askedAt < grace.plus(LATE).toNanos());
            kill.join();
            JsonNode last = fx.client().await(id).json();
            assertEquals("killed", last.path("status").asText(), last.toString());
            assertNoProcessOf(id);
        }
    }

    @Test
    void aPausedSessionWhoseSupervisorDiesStaysPausedAndResumes() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.client().start(sh("echo $$ > command.pid; sleep 600 & wait; echo resumed").build());
            long command = Await.pidFile(dataDir.resolve("command.pid"), Duration.ofSeconds(30));
            assertTrue(fx.client().signal(id, Signal.STOP));
            Await.until(Duration.ofSeconds(30), "the command stopped", () -> state(command) == 'T');

            killDashNine(fx.supervisorPid());

            // The kernel hangs up a stopped group whose leader's parent left the session: the command's group
            // has the wrapper, which lives on, as that parent.
            assertEquals('T', state(command), "still there and stopped, not hung up");
            // A new supervisor adopts it, and its first look at /proc finds it paused.
            Await.until(Duration.ofSeconds(30), "the session shown paused",
                    () -> shown(fx, id).path("status").asText().equals("paused"));
            assertEquals('T', state(command));
            assertTrue(fx.client().signal(id, Signal.CONT));
            Await.until(Duration.ofSeconds(30), "the command running again", () -> state(command) != 'T');
            fx.client().kill(id, Signal.TERM, Duration.ofSeconds(1));
            JsonNode last = fx.client().await(id).json();
            assertEquals("killed", last.path("status").asText(), "not failed by a hangup: " + last);
            assertNoProcessOf(id);
        }
    }

    @Test
    void aSessionWhoseWrapperWasKilledKeepsRunningAndItsDeadlineHoldsThroughACrash() throws Exception {
        Duration timeout = Duration.ofSeconds(6);
        Duration grace = Duration.ofMillis(500);
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.client().start(sh("trap '' TERM; echo $$ > command.pid; sleep 600 & wait").timeout(timeout)
                    .grace(grace).build());
            long command = Await.pidFile(dataDir.resolve("command.pid"), Duration.ofSeconds(30));
            long commandStart = os.startTicks(command);
            long wrapper = fx.client().show(id).json().path("pid").asLong();
            assertNotEquals(command, wrapper);

            killDashNine(wrapper);
            Await.until(Duration.ofSeconds(10), "the supervisor to notice the wrapper's death", () -> wrapperLostEvent(fx, id));
            JsonNode running = fx.client().show(id).json();
            assertEquals("running", running.path("status").asText(), "the command runs on: " + running);
            // The deadline counts from the session's own start (the record's), not from this test's first request,
            // which also waited for the first supervisor to come up.
            Instant startedAt = Instant.parse(running.path("started_at").asText());
            assertTrue(os.isAlive(command, commandStart));
            killDashNine(fx.supervisorPid());

            // With its wrapper and its supervisor gone, nothing can end it until the next supervisor is up (a client
            // brings one): from then on it holds the deadline, or ends it at once when it has passed.
            fx.client().show(id).json();
            Instant up = Instant.now();
            Instant due = later(startedAt.plus(timeout), up).plus(grace).plus(LATE);
            // The command itself is gone by then (its record follows a moment later).
            Await.until(Duration.between(Instant.now(), due),
                    "the command to be gone by " + due + " (started " + startedAt + ", the next supervisor up at " + up + ")",
                    () -> !os.isAlive(command, commandStart));
            JsonNode last = fx.client().await(id).json();
            assertEquals("timeout", last.path("status").asText(), last.toString());
            assertTrue(last.path("kill_report").path("survivors").isEmpty(), last.toString());
            assertTrue(!os.isAlive(command, commandStart));
            assertNoProcessOf(id);
        }
    }

    @Test
    void aCommandThatEndsAfterItsWrapperWasKilledIsUnknownAndSaysWhy() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.client().start(sh("echo $$ > command.pid; while [ ! -e go ]; do sleep 0.05; done; exit 3").build());
            Await.pidFile(dataDir.resolve("command.pid"), Duration.ofSeconds(30));
            killDashNine(fx.client().show(id).json().path("pid").asLong());
            Await.until(Duration.ofSeconds(10), "the supervisor to notice the wrapper's death", () -> wrapperLostEvent(fx, id));
            Files.writeString(dataDir.resolve("go"), "");

            JsonNode last = fx.client().await(id).json();
            assertEquals("unknown", last.path("status").asText(), last.toString());
            assertTrue(last.path("reason").asText().contains("lost with its wrapper"), last.path("reason").asText());
            assertNoProcessOf(id);
        }
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /** Whether the session's events say its wrapper was lost (a {@code kill} event naming it). */
    private static boolean wrapperLostEvent(SupervisorFixture fx, String id) {
        for (JsonNode e : shown(fx, id).path("events")) {
            if (e.path("kind").asText().equals("kill") && e.path("message").asText().contains("wrapper")) {
                return true;
            }
        }
        return false;
    }

    /** The session as {@code show} gives it; a missing node while no supervisor answers yet. */
    private static JsonNode shown(SupervisorFixture fx, String id) {
        try {
            return fx.client().show(id).json();
        } catch (java.io.IOException e) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
    }

    private static void killDashNine(long pid) {
        ProcessHandle.of(pid).orElseThrow().destroyForcibly(); // SIGKILL: no hook, no goodbye
        Await.until(Duration.ofSeconds(10), pid + " to die", () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
    }

    private static char state(long pid) {
        return LinuxProcesses.readStat(pid).map(ProcInfo::state).orElse('?');
    }

    /** No live process carries the session's tag (what a user would find with ps). */
    private void assertNoProcessOf(String id) {
        String tag = "RUNBOARD_SESSION=" + id;
        Await.until(LATE, "no process of " + id + " left", () -> {
            List<Long> left = new ArrayList<>();
            for (ProcInfo p : os.snapshot().all()) {
                if (p.alive() && os.hasEnvEntry(p.pid(), tag)) {
                    left.add(p.pid());
                }
            }
            return left.isEmpty();
        });
    }
}
