package dev.runboard.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import dev.runboard.process.EngineFixture;
import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.workspace.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log and exec probes, an unhealthy command restarted by restart: always, and a readiness timeout. */
class ReadinessTest {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    EngineFixture fixture;
    Orchestrator stack;

    @BeforeEach
    void setUp() {
        fixture = new EngineFixture(dir.resolve("data"));
        stack = new Orchestrator(fixture.engine());
    }

    @AfterEach
    void tearDown() {
        stack.close();
        fixture.close();
    }

    private List<Session> runsOf(String name) {
        return fixture.engine().sessions().stream().filter(s -> s.stack() != null && name.equals(s.stack().name()))
                .sorted(Comparator.comparing((Session s) -> s.stack().restarts()).thenComparing(Session::startedAt)).toList();
    }

    @Test
    void probesDecideReadinessAndAnUnhealthyCommandIsRestarted() throws Exception {
        Path root = Files.createDirectories(dir.resolve("ws"));
        Files.writeString(root.resolve("runboard.yaml"), """
                commands:
                  logged:
                    command: sleep 0.5; echo "server listening on 8080"; exec sleep 60
                    shell: /bin/sh
                    ready: {log: "listening on \\\\d+", period: 100ms}
                  checked:
                    command: touch healthy; exec sleep 60
                    shell: /bin/sh
                    restart: always
                    backoff: {initial: 200ms}
                    ready: {exec: "test -f healthy", period: 200ms, failures: 2}
                  never_ready:
                    command: exec sleep 60
                    shell: /bin/sh
                    ready: {exec: "false", period: 100ms, timeout: 1s}
                  needs_it:
                    command: echo never
                    shell: /bin/sh
                    depends_on: {never_ready: ready, logged: ready}
                """);
        stack.up(Workspace.open(root), List.of("checked", "needs_it"), Map.of());

        Session logged = runsOf("logged").get(0);
        Await.until(WAIT, "logged to be ready by its log line", () -> Boolean.TRUE.equals(logged.ready()));
        Session needsIt = runsOf("needs_it").get(0);
        Await.until(WAIT, "needs_it to be skipped", () -> needsIt.status() == SessionStatus.SKIPPED);
        assertEquals("dependency never_ready will not be ready: not ready within 1s", needsIt.snapshot().reason());
        assertEquals(SessionStatus.RUNNING, runsOf("never_ready").get(0).status(), "a slow starter keeps running");

        Session checked = runsOf("checked").get(0);
        Await.until(WAIT, "checked to be ready", () -> Boolean.TRUE.equals(checked.ready()));
        Files.delete(root.resolve("healthy"));
        Await.until(WAIT, "checked to be restarted once unhealthy", () -> runsOf("checked").size() == 2
                && runsOf("checked").get(1).status() == SessionStatus.RUNNING);
        assertEquals(SessionStatus.FAILED, checked.status());
        assertTrue(checked.snapshot().reason().startsWith("unhealthy: 2 probes failed in a row"), checked.snapshot().reason());
        assertTrue(checked.snapshot().events().stream().anyMatch(e -> e.kind().equals("probe") && e.message().startsWith("unhealthy")),
                "a probe event says so: " + checked.snapshot().events());
        Await.until(WAIT, "the new run to be ready", () -> Boolean.TRUE.equals(runsOf("checked").get(1).ready()));
    }

    /**
     * The orchestrator starts a dependant as soon as {@code everReady} reads true, so the "ready" event
     * must carry a time read before that: a clock that notes, at each read, whether the verdict was
     * already out finds the event's time among the reads made before it (it was read after, once).
     */
    @Test
    void theReadyEventIsStampedBeforeDependantsCanSeeIt() throws Exception {
        Session server = fixture.engine().start(fixture.sh("exec sleep 60").build());
        java.util.Map<java.time.Instant, Boolean> readsSeenReady = new java.util.concurrent.ConcurrentHashMap<>();
        Readiness[] readiness = new Readiness[1];
        java.time.Clock ticking = new java.time.Clock() {
            private final java.util.concurrent.atomic.AtomicLong millis = new java.util.concurrent.atomic.AtomicLong(1_000_000);

            @Override
            public java.time.Instant instant() {
                java.time.Instant at = java.time.Instant.ofEpochMilli(millis.incrementAndGet()); // every read distinct
                readsSeenReady.put(at, readiness[0] != null && readiness[0].everReady());
                return at;
            }

            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }
        };
        java.util.concurrent.ScheduledExecutorService probes = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            // (An exec probe: a tcp one passes only on a listener the session's own processes hold.)
            readiness[0] = new Readiness(server, new dev.runboard.workspace.ReadyCheck(null, null, null, "true",
                    Duration.ofMillis(100), null, null), fixture.engine().waiting(), false, at -> false, ticking);
            readiness[0].start(probes);
            Await.until(WAIT, "the probe to pass", () -> Boolean.TRUE.equals(server.ready()));
        } finally {
            readiness[0].stop();
            probes.shutdownNow();
            fixture.engine().kill(server, dev.runboard.session.Signal.KILL, Duration.ZERO).get();
        }
        dev.runboard.session.SessionEvent ready = server.snapshot().events().stream()
                .filter(e -> e.message().startsWith("ready after")).findFirst().orElseThrow();
        assertEquals(Boolean.FALSE, readsSeenReady.get(ready.time()),
                "the ready event's time was read before everReady was published: " + ready + " " + readsSeenReady);
    }
}
