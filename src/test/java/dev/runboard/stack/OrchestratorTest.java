package dev.runboard.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import dev.runboard.process.EngineFixture;
import dev.runboard.session.Session;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.workspace.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue #17 with real processes, in one engine: dependencies, readiness, restarts, skips and queues. */
class OrchestratorTest {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    EngineFixture fixture;
    Orchestrator stack;

    @BeforeEach
    void setUp() throws Exception {
        fixture = new EngineFixture(dir.resolve("data"));
        stack = new Orchestrator(fixture.engine());
    }

    @AfterEach
    void tearDown() {
        stack.close();
        fixture.close();
    }

    private Workspace workspace(String yaml) throws Exception {
        Path root = Files.createDirectories(dir.resolve("ws"));
        Files.writeString(root.resolve("runboard.yaml"), yaml);
        return Workspace.open(root);
    }

    private List<Session> runsOf(String name) {
        return fixture.engine().sessions().stream().filter(s -> s.stack() != null && name.equals(s.stack().name()))
                .sorted(Comparator.comparing((Session s) -> s.stack().restarts()).thenComparing(Session::startedAt)).toList();
    }

    private Session only(String name) {
        List<Session> runs = runsOf(name);
        assertEquals(1, runs.size(), name + " runs: " + runs);
        return runs.get(0);
    }

    @Test
    void aServerStartsOnlyAfterItsDatabaseIsReadyAndItsMigrationSucceeded() throws Exception {
        int port = StackScenarios.freePort();
        List<Session> up = stack.up(workspace(StackScenarios.dbMigrateServer(port)), List.of(), Map.of());
        assertEquals(List.of("db", "migrate", "server"), up.stream().map(s -> s.stack().name()).toList());
        Session migrate = only("migrate");
        assertEquals(SessionStatus.PENDING, migrate.status());
        assertEquals("waiting for db: ready", migrate.snapshot().reason());
        Session db = only("db");
        assertEquals(Boolean.FALSE, db.snapshot().ready(), "running, not ready yet");

        Await.until(WAIT, "the server to run", () -> only("server").status() == SessionStatus.RUNNING);
        SessionSnapshot dbNow = db.snapshot();
        assertEquals(Boolean.TRUE, dbNow.ready());
        Instant readyAt = dbNow.events().stream().filter(e -> e.kind().equals("probe")).map(SessionEvent::time)
                .findFirst().orElseThrow();
        assertTrue(Duration.between(dbNow.startedAt(), readyAt).compareTo(Duration.ofSeconds(2)) >= 0,
                "the port opens after 2 s: ready at " + readyAt + ", started " + dbNow.startedAt());
        SessionSnapshot m = EngineFixture.awaitEnd(migrate);
        assertEquals(SessionStatus.COMPLETED, m.status());
        assertTrue(!m.startedAt().isBefore(readyAt), "migrate started " + m.startedAt() + " before db was ready " + readyAt);
        SessionSnapshot server = only("server").snapshot();
        assertTrue(!server.startedAt().isBefore(m.endedAt()), "server started before migrate succeeded");
        assertEquals(Map.of("db", "ready", "migrate", "succeeded"), server.dependsOn());
        assertNull(server.ready(), "no probe: ready is null");

        List<String> stopped = stack.down(only("server").stack().file(), List.of());
        assertEquals(List.of("server", "migrate", "db").subList(0, 1), stopped.subList(0, 1), "dependants first: " + stopped);
        assertEquals(SessionStatus.KILLED, only("server").status());
        assertEquals(SessionStatus.KILLED, db.status());
        assertEquals(1, runsOf("db").size(), "down never restarts");
    }

    @Test
    void aCrashingServerRestartsWithBackoffAndAFailedDependencySkipsItsDependant() throws Exception {
        Workspace ws = workspace(StackScenarios.crashTwice());
        stack.up(ws, List.of("flaky", "steady", "after_broken"), Map.of());

        Session skipped = only("after_broken");
        Await.until(WAIT, "after_broken to be skipped", () -> skipped.status() == SessionStatus.SKIPPED);
        assertEquals("dependency broken will not succeed: failed (exit 3)", skipped.snapshot().reason());
        assertNull(skipped.snapshot().pid(), "never started");

        Await.until(WAIT, "a third run of flaky", () -> runsOf("flaky").size() == 3
                && runsOf("flaky").get(2).status() == SessionStatus.RUNNING);
        List<SessionSnapshot> runs = runsOf("flaky").stream().map(Session::snapshot).toList();
        assertEquals(List.of(SessionStatus.FAILED, SessionStatus.FAILED, SessionStatus.RUNNING),
                runs.stream().map(SessionSnapshot::status).toList());
        assertEquals(List.of(0, 1, 2), runs.stream().map(SessionSnapshot::restarts).toList());
        assertEquals(runs.get(0).sessionId(), runs.get(1).previousRun());
        assertEquals(runs.get(1).sessionId(), runs.get(2).previousRun());
        assertTrue(Duration.between(runs.get(0).endedAt(), runs.get(1).startedAt()).compareTo(Duration.ofSeconds(1)) >= 0,
                "first backoff 1 s: " + runs.get(0).endedAt() + " → " + runs.get(1).startedAt());
        assertTrue(Duration.between(runs.get(1).endedAt(), runs.get(2).startedAt()).compareTo(Duration.ofSeconds(2)) >= 0,
                "second backoff 2 s: " + runs.get(1).endedAt() + " → " + runs.get(2).startedAt());

        // A person's kill is final, even with restart: always.
        Session steady = only("steady");
        Await.until(WAIT, "steady to run", () -> steady.status() == SessionStatus.RUNNING);
        fixture.engine().kill(steady, Signal.TERM, Duration.ofSeconds(5)).get();
        EngineFixture.awaitEnd(steady);
        Await.until(WAIT, "the orchestration to settle steady's chain", () -> stack.isOver(steady));
        assertEquals(1, runsOf("steady").size(), "a killed command is never restarted");
        assertEquals(3, runsOf("flaky").size(), "exactly three runs");
    }

    @Test
    void aGroupWithParallelTwoRunsFiveJobsTwoAtATimeInOrder() throws Exception {
        stack.up(workspace(StackScenarios.queueOfFive()), List.of("tests"), Map.of());
        assertEquals(SessionStatus.QUEUED, only("job5").status());
        assertEquals("queued in tests: 2 of 2 running", only("job5").snapshot().reason());
        for (int i = 1; i <= 5; i++) {
            EngineFixture.awaitEnd(only("job" + i));
        }
        List<SessionSnapshot> jobs = java.util.stream.IntStream.rangeClosed(1, 5)
                .mapToObj(i -> only("job" + i).snapshot()).toList();
        jobs.forEach(j -> assertEquals(SessionStatus.COMPLETED, j.status()));
        assertMostRunningAtOnce(2, jobs);
        for (int i = 1; i < 5; i++) {
            assertTrue(!jobs.get(i).startedAt().isBefore(jobs.get(i - 1).startedAt()), "in order: " + jobs);
        }
    }

    /** From the records' start and end times: at no start were more than {@code limit} running. */
    static void assertMostRunningAtOnce(int limit, List<SessionSnapshot> runs) {
        for (SessionSnapshot a : runs) {
            long overlapping = runs.stream().filter(b -> !b.startedAt().isAfter(a.startedAt())
                    && b.endedAt().isAfter(a.startedAt())).count();
            assertTrue(overlapping <= limit, overlapping + " running at " + a.startedAt() + ": " + runs);
        }
    }

    @Test
    void adHocQueuesAndAfter() throws Exception {
        stack.setParallel("q", 1);
        Session first = stack.startAdHoc(fixture.sh("sleep 0.5").build(), "q", Map.of(), null);
        Session second = stack.startAdHoc(fixture.sh("true").build(), "q", Map.of(), null);
        Session after = stack.startAdHoc(fixture.sh("echo after").build(), null, Map.of(second.id(), "succeeded"), null);
        assertEquals(SessionStatus.QUEUED, second.status());
        assertEquals(SessionStatus.PENDING, after.status());
        assertNotNull(after.snapshot().reason());
        SessionSnapshot a = EngineFixture.awaitEnd(after);
        SessionSnapshot s = EngineFixture.awaitEnd(second);
        SessionSnapshot f = EngineFixture.awaitEnd(first);
        assertTrue(!s.startedAt().isBefore(f.endedAt()), "queue of one: second after first");
        assertTrue(!a.startedAt().isBefore(s.endedAt()), "--after: after the second succeeded");
        assertEquals(SessionStatus.COMPLETED, a.status());
    }
}
