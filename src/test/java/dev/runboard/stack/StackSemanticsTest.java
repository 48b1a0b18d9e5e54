package dev.runboard.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import dev.runboard.process.EngineFixture;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
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

/** Issue 45's semantics with real processes: waits, the log probe's last look, succeeded on restarts, restart limits, probe owners. */
class StackSemanticsTest {
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
    void untilEndedWaitsForALateFailureAndWaitSettlesOnCommandsWithoutAProbe() throws Exception {
        Workspace ws = workspace("""
                commands:
                  quick: {command: "sleep 0.2", shell: /bin/sh, group: tests}
                  late: {command: "sleep 1.5; echo boom; exit 1", shell: /bin/sh, group: tests}
                  server: {command: "exec sleep 60", shell: /bin/sh}
                  crashes: {command: "sleep 0.2; exit 3", shell: /bin/sh}
                """);
        List<Session> suites = stack.up(ws, ws.file().toString(), List.of("tests"), Map.of(), false, false);
        Orchestrator.Settled ended = stack.await(suites, WAIT, Orchestrator.WaitFor.ENDED, Orchestrator.DEFAULT_SETTLE, false);
        assertEquals(List.of("late failed (exit 1)"), ended.failed());
        assertEquals(List.of(SessionStatus.COMPLETED, SessionStatus.FAILED), ended.sessions().stream().map(Session::status).toList(),
                "the final states, not those at the start");
        SessionSnapshot late = only("late").snapshot();
        assertTrue(Duration.between(late.startedAt(), late.endedAt()).compareTo(Duration.ofSeconds(1)) >= 0, "it failed late");

        // --wait: a command without a probe counts once it stayed up --settle (from its recorded start), or when it ended.
        List<Session> services = stack.up(ws, ws.file().toString(), List.of("server", "crashes"), Map.of(), false, false);
        Duration settle = Duration.ofSeconds(3); // generous: crashes (0.2 s) must have ended well before, even under load
        Orchestrator.Settled up = stack.await(services, WAIT, Orchestrator.WaitFor.READY, settle, false);
        assertEquals(List.of("crashes failed (exit 3)"), up.failed());
        SessionSnapshot server = only("server").snapshot();
        assertEquals(SessionStatus.RUNNING, server.status());
        assertNull(server.ready(), "no probe: ready stays null");
        assertTrue(Duration.between(server.startedAt(), fixture.engine().config().clock().instant()).compareTo(settle) >= 0,
                "returned only once the server stayed up the settle time");
    }

    @Test
    void forceRestartsARunningCommandAfterItsRunHasEnded() throws Exception {
        Workspace ws = workspace("""
                commands:
                  server:
                    command: trap 'sleep 0.5; exit 0' TERM; echo $$ >> pids; while :; do sleep 0.1; done
                    shell: /bin/sh
                """);
        String file = ws.file().toString();
        Session first = stack.up(ws, file, List.of("server"), Map.of(), false, false).get(0);
        Await.until(WAIT, "server to run", () -> first.status() == SessionStatus.RUNNING);
        assertEquals(first, stack.up(ws, file, List.of("server"), Map.of(), true, false).get(0), "the window's force: never twice");

        Session second = stack.up(ws, file, List.of("server"), Map.of(), true, false, true).get(0);
        assertTrue(second != first, "a new run");
        SessionSnapshot old = EngineFixture.awaitEnd(first);
        assertEquals(SessionStatus.KILLED, old.status());
        Await.until(WAIT, "the new run to run", () -> second.status() == SessionStatus.RUNNING);
        assertTrue(!second.snapshot().startedAt().isBefore(old.endedAt()),
                "started only once the old run had ended: " + second.snapshot().startedAt() + " vs " + old.endedAt());
        Await.until(WAIT, "the old chain to be over", () -> stack.isOver(first));
        assertEquals(2, runsOf("server").size(), "the killed run is not restarted by its chain");
        stack.down(file, List.of());
    }

    @Test
    void aLogProbeTakesALastLookWhenItsCommandEnds() throws Exception {
        Workspace ws = workspace("""
                commands:
                  gen:
                    command: sleep 2; echo "certificates ready"; sleep 0.3
                    shell: /bin/sh
                    ready: {log: "certificates ready", period: 30s}
                  use:
                    command: echo using
                    shell: /bin/sh
                    depends_on: {gen: ready}
                """);
        // The first probe looks at once and finds nothing; the next would be 30 s later: only the last look can see the line.
        stack.up(ws, List.of("use"), Map.of());
        SessionSnapshot use = EngineFixture.awaitEnd(only("use"));
        assertEquals(SessionStatus.COMPLETED, use.status(), use.reason());
        SessionSnapshot gen = only("gen").snapshot();
        assertEquals(Boolean.TRUE, gen.ready(), "its ready line was read as it ended");
        assertTrue(gen.events().stream().anyMatch(e -> e.message().contains("read as it ended")), gen.events().toString());
        assertTrue(!use.startedAt().isBefore(gen.endedAt()), "use started after gen's last look");
    }

    @Test
    void succeededOnARestartingDependencyWaitsForItsCurrentRun() throws Exception {
        Workspace ws = workspace("""
                commands:
                  warm:
                    command: echo warmed
                    shell: /bin/sh
                    restart: always
                    backoff: {initial: 300ms, limit: 2}
                  after:
                    command: echo after
                    shell: /bin/sh
                    depends_on: {warm: succeeded}
                """);
        stack.up(ws, List.of("after"), Map.of());
        SessionSnapshot after = EngineFixture.awaitEnd(only("after"));
        assertEquals(SessionStatus.COMPLETED, after.status());
        List<SessionSnapshot> warm = runsOf("warm").stream().map(Session::snapshot).toList();
        assertEquals(3, warm.size(), "the first run and two restarts: " + warm);
        assertTrue(!after.startedAt().isBefore(warm.get(2).endedAt()),
                "after waited for the run warm was on, not its first success: " + after.startedAt() + " vs " + warm);
    }

    /**
     * The race behind succeededOnARestartingDependencyWaitsForItsCurrentRun's one failure at load 26: the
     * orchestrator looks at its chains one after another, and a dependency's run that ends between two looks, or
     * during one before its own chain's turn, was seen completed by its dependent before the orchestrator had decided
     * whether a restart follows. A completed run is a success only once that is decided (the chain is over).
     */
    @Test
    void aRunSeenCompletedBeforeItsRestartIsDecidedHasNotSucceeded() throws Exception {
        Session done = fixture.engine().start(fixture.sh("true").build());
        assertEquals(SessionStatus.COMPLETED, EngineFixture.awaitEnd(done).status());
        Chain chain = new Chain(StackCommand.adHoc(done.spec(), null, Map.of()), Map.of());
        chain.current = done;
        assertFalse(chain.met("succeeded"), "its end not yet handled: a restart may follow");
        assertFalse(chain.never("succeeded"), "nor is it known never to succeed");
        chain.over = true; // handled: no restart follows
        assertTrue(chain.met("succeeded"));
    }

    @Test
    void anUnlimitedRestartCountGoesOnAndLimitZeroNeverRestarts() throws Exception {
        Workspace ws = workspace("""
                commands:
                  forever:
                    command: exit 1
                    shell: /bin/sh
                    restart: on-failure
                    backoff: {initial: 100ms, max: 100ms, limit: unlimited}
                  once:
                    command: exit 2
                    shell: /bin/sh
                    restart: on-failure
                    backoff: {limit: 0}
                  after_once:
                    command: echo never
                    shell: /bin/sh
                    depends_on: {once: succeeded}
                """);
        stack.up(ws, List.of("forever", "after_once"), Map.of());
        Await.until(WAIT, "more restarts than the default limit of 5", () -> runsOf("forever").size() > 7);
        Session waiting = runsOf("forever").get(runsOf("forever").size() - 1);
        String reason = waiting.snapshot().reason();
        assertTrue(reason == null || !reason.contains(" of "), "no 'of N' when unlimited: " + reason);

        Session skipped = only("after_once");
        Await.until(WAIT, "after_once to be skipped", () -> skipped.status() == SessionStatus.SKIPPED);
        assertEquals("dependency once will not succeed: failed (exit 2)", skipped.snapshot().reason());
        assertEquals(1, runsOf("once").size(), "limit 0: no restart");
        stack.down(ws.file().toString(), List.of());
    }

    @Test
    void theLastAllowedRunDoesNotSayRestarting() throws Exception {
        Workspace ws = workspace("""
                commands:
                  sick:
                    command: touch healthy; exec sleep 60
                    shell: /bin/sh
                    restart: always
                    backoff: {limit: 0}
                    ready: {exec: "test -f healthy", period: 200ms, failures: 2}
                """);
        stack.up(ws, List.of("sick"), Map.of());
        Session sick = only("sick");
        Await.until(WAIT, "sick to be ready", () -> Boolean.TRUE.equals(sick.ready()));
        Files.delete(ws.root().resolve("healthy"));
        SessionSnapshot end = EngineFixture.awaitEnd(sick);
        assertEquals(SessionStatus.FAILED, end.status());
        assertEquals("unhealthy: 2 probes failed in a row", end.reason());
        Await.until(WAIT, "the chain to be over", () -> stack.isOver(sick));
        assertEquals(1, runsOf("sick").size());
    }

    @Test
    void aTcpProbePassesOnlyOnTheCommandsOwnListener() throws Exception {
        try (java.net.ServerSocket other = new java.net.ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
            int taken = other.getLocalPort(); // held by this test's JVM: another program of the same user
            int own = StackScenarios.freePort();
            Workspace ws = workspace("""
                    commands:
                      squatter:
                        command: exec sleep 60
                        shell: /bin/sh
                        ready: {tcp: %d, period: 100ms, timeout: 2s}
                      db:
                        command: |-
                          exec perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => %d, Listen => 5, ReuseAddr => 1) or die "listen: $!"; while ($c = $s->accept) { close $c }'
                        shell: /bin/sh
                        ready: {tcp: %d, period: 100ms}
                    """.formatted(taken, own, own));
            stack.up(ws, List.of("squatter", "db"), Map.of());
            Session db = only("db");
            Await.until(WAIT, "db to be ready on its own listener", () -> Boolean.TRUE.equals(db.ready()));
            Session squatter = only("squatter");
            Await.until(WAIT, "squatter's probe to time out", () -> squatter.snapshot().events().stream()
                    .anyMatch(e -> e.message().startsWith("not ready within")));
            assertFalse(Boolean.TRUE.equals(squatter.ready()), "another program's listener never made it ready");
            assertTrue(squatter.snapshot().events().stream().anyMatch(e -> e.kind().equals("probe")
                    && e.message().contains("held by another program")), squatter.snapshot().events().toString());
            stack.down(ws.file().toString(), List.of());
        }
    }

    /** Another user's listener: its owner cannot be seen, so the probe passes on the connection, and an event says so. */
    @Test
    void aListenerWhoseOwnerCannotBeSeenPassesWithAnEventSayingSo() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid")),
                "skipped: starting another user's listener needs root");
        int port = StackScenarios.freePort();
        Process nobody = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "perl",
                "-MIO::Socket::INET", "-e", "$s = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => " + port
                + ", Listen => 5, ReuseAddr => 1) or die; print \"up\\n\"; $| = 1; while ($c = $s->accept) { close $c }")
                .redirectErrorStream(true).start();
        try {
            Workspace ws = workspace("""
                    commands:
                      client:
                        command: exec sleep 60
                        shell: /bin/sh
                        ready: {tcp: %d, period: 100ms}
                    """.formatted(port));
            stack.up(ws, List.of("client"), Map.of());
            Session client = only("client");
            Await.until(WAIT, "client to be ready on the connection alone", () -> Boolean.TRUE.equals(client.ready()));
            assertTrue(client.snapshot().events().stream().anyMatch(e -> e.message().contains("was not seen")),
                    client.snapshot().events().toString());
            stack.down(ws.file().toString(), List.of());
        } finally {
            nobody.destroyForcibly().waitFor();
        }
    }
}
