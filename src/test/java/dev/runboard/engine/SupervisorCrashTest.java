package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.EngineConfig;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.store.Json;
import dev.runboard.store.SessionStore;
import dev.runboard.testing.Gate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the supervisor during 20 running sessions loses nothing: every command keeps running,
 * the next client call brings a supervisor back that re-adopts them all, deadlines fire on time,
 * and every output and exit code matches a run without the crash, byte for byte.
 */
@Tag("slow")
class SupervisorCrashTest {
    private static final double TIMEOUT_S = 4;

    @TempDir
    Path crashDir;
    @TempDir
    Path referenceDir;

    /**
     * Four of each kind: quiet, flooding, TERM-ignoring, with a deadline, failing with 7; and one that
     * outlasts the crash. All but the deadlines wait for the {@link Gate} "gate" in their cwd before they
     * end, and the adoptee for "adoptee-gate": the test opens them once it has seen every command outlive
     * the crash and the next supervisor come up.
     */
    private static Map<String, SessionSpec> specs(Path cwd) {
        Map<String, SessionSpec> specs = new LinkedHashMap<>();
        specs.put("adoptee", sh(cwd, "echo waiting; " + Gate.waitFor("adoptee-gate") + "echo adopted").build());
        for (int i = 0; i < 4; i++) {
            specs.put("quiet" + i, sh(cwd, "echo start " + i + "; " + Gate.waitFor("gate") + "sleep 1; echo end " + i).build());
            specs.put("flood" + i, sh(cwd, "yes 'flood line " + i + " .........................' | head -c 6000000; "
                    + Gate.waitFor("gate") + "echo tail").build());
            specs.put("stubborn" + i, sh(cwd, "trap '' TERM; echo stubborn " + i + "; " + Gate.waitFor("gate") + "sleep 1; echo done").build());
            specs.put("deadline" + i, sh(cwd, "echo before; sleep 30; echo never").timeout(Duration.ofMillis((long) (TIMEOUT_S * 1000))).build());
            specs.put("failing" + i, sh(cwd, "echo failing " + i + " >&2; " + Gate.waitFor("gate") + "exit 7").build());
        }
        return specs;
    }

    private static SessionSpec.Builder sh(Path cwd, String command) {
        return SessionSpec.shell(command).shell(Path.of("/bin/sh")).cwd(cwd).grace(Duration.ofMillis(500));
    }

    @Test
    void killDashNineOfTheSupervisorLosesNothing() throws Exception {
        // The reference: the same sessions in an engine that does not crash.
        Map<String, SessionSnapshot> reference = new LinkedHashMap<>();
        Gate.open(referenceDir, "gate");
        Gate.open(referenceDir, "adoptee-gate");
        try (SessionEngine ref = new SessionEngine(EngineConfig.forDataDir(referenceDir))) {
            Map<String, CompletableFuture<SessionSnapshot>> ends = new LinkedHashMap<>();
            for (var e : specs(referenceDir).entrySet()) {
                Session s = ref.start(e.getValue());
                CompletableFuture<SessionSnapshot> end = new CompletableFuture<>();
                s.addListener(end::complete);
                ends.put(e.getKey(), end);
            }
            for (var e : ends.entrySet()) {
                reference.put(e.getKey(), e.getValue().get(60, TimeUnit.SECONDS));
            }
        }

        try (SupervisorFixture fx = new SupervisorFixture(crashDir)) {
            Path work = Files.createDirectory(crashDir.resolve("work"));
            long launched = System.nanoTime();
            Map<String, String> ids = new LinkedHashMap<>();
            for (var e : specs(work).entrySet()) {
                ids.put(e.getKey(), fx.client().start(e.getValue()));
            }
            long first = fx.supervisorPid();
            SessionStore store = new SessionStore(crashDir);
            Map<String, Long> pids = new LinkedHashMap<>();
            for (var e : ids.entrySet()) {
                pids.put(e.getKey(), store.load(e.getValue()).orElseThrow().pid());
            }
            ProcessHandle.of(first).orElseThrow().destroyForcibly(); // SIGKILL: no hook, no goodbye
            dev.runboard.process.Await.until(Duration.ofSeconds(10), "the supervisor to die",
                    () -> ProcessHandle.of(first).map(h -> !h.isAlive()).orElse(true));
            OsProcesses os = OsProcesses.forThisMachine();
            // The deadlines' own 4 s may have passed already when a loaded machine was slow to get here.
            boolean beforeDeadlines = Duration.ofNanos(System.nanoTime() - launched).compareTo(Duration.ofSeconds(3)) < 0;
            for (var e : pids.entrySet()) {
                if (beforeDeadlines || !e.getKey().startsWith("deadline")) {
                    assertTrue(os.isAlive(e.getValue()), e.getKey() + " keeps running after its supervisor died");
                }
            }
            Gate.open(work, "gate");

            // The next client call brings a supervisor back, which adopts every session.
            assertEquals(21, fx.client().list().size());
            long second = fx.supervisorPid();
            assertNotEquals(first, second);
            Gate.open(work, "adoptee-gate");
            for (var e : ids.entrySet()) {
                JsonNode last = fx.client().await(e.getValue()).json();
                SessionSnapshot want = reference.get(e.getKey());
                String name = e.getKey();
                assertEquals(want.status().word(), last.path("status").asText(), name + ": " + last.path("reason").asText());
                assertEquals(want.exitCode(), last.hasNonNull("exit_code") ? last.get("exit_code").asInt() : null, name);
                assertArrayEquals(outputOf(Json.mapper().valueToTree(want)), outputOf(last), name + ": output byte for byte");
                if (name.equals("adoptee")) {
                    // Long enough to be running whenever the new supervisor comes up, however busy the machine.
                    java.util.Set<String> kinds = new java.util.HashSet<>();
                    last.path("events").forEach(ev -> kinds.add(ev.path("kind").asText()));
                    assertTrue(kinds.containsAll(java.util.Set.of("supervisor", "stdin")),
                            name + ": the adoption and the end of its input are events: " + last.path("events"));
                }
                if (name.startsWith("deadline")) {
                    // Its wrapper holds the deadline to the millisecond (WrapperDeadlineTest); here it must hold with no
                    // supervisor alive: not before it, and nowhere near the 30 s the command would run. On a loaded
                    // machine (a busy loop and four test forks on two cores) a wrapper once ended it 2.6 s late.
                    double elapsed = last.path("elapsed_seconds").asDouble();
                    assertTrue(elapsed >= TIMEOUT_S && elapsed < TIMEOUT_S + 6, name + " ended on time: " + elapsed + " s");
                }
            }
        }
    }

    /** The whole output: the artifact's bytes when it outgrew the preview, else the preview's. */
    private static byte[] outputOf(JsonNode snapshot) throws java.io.IOException {
        if (snapshot.hasNonNull("artifact")) {
            return Files.readAllBytes(Path.of(snapshot.get("artifact").asText()));
        }
        return snapshot.path("output").asText().getBytes(StandardCharsets.UTF_8);
    }
}
