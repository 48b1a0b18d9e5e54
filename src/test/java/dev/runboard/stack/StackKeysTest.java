package dev.runboard.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import dev.runboard.process.EngineFixture;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.workspace.Workspace;
import dev.runboard.workspace.WorkspaceException;
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

/** Issue 45's command keys with real processes: success_exit_codes, disabled, shutdown, liveness, log_file, include. */
class StackKeysTest {
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

    private Path root() throws Exception {
        return Files.createDirectories(dir.resolve("ws"));
    }

    private Workspace workspace(String yaml) throws Exception {
        Files.writeString(root().resolve("runboard.yaml"), yaml);
        return Workspace.open(root());
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

    private static String output(Session s) throws Exception {
        return Files.readString(s.captureFile());
    }

    @Test
    void successExitCodesCompleteAndADisabledCommandSkipsItsDependants() throws Exception {
        Workspace ws = workspace("""
                commands:
                  lint:
                    command: echo warnings; exit 3
                    shell: /bin/sh
                    success_exit_codes: [3]
                  report:
                    command: echo report
                    shell: /bin/sh
                    depends_on: {lint: succeeded}
                  worse:
                    command: exit 4
                    shell: /bin/sh
                    success_exit_codes: [3]
                  db:
                    command: exec sleep 60
                    shell: /bin/sh
                    disabled: true
                    description: the shared database, started by hand
                  web:
                    command: echo web
                    shell: /bin/sh
                    depends_on: {db: started}
                """);
        stack.up(ws, List.of("report", "worse", "web"), Map.of());
        SessionSnapshot lint = EngineFixture.awaitEnd(only("lint"));
        assertEquals(SessionStatus.COMPLETED, lint.status(), "exit 3 is listed: completed");
        assertEquals(3, lint.exitCode());
        assertEquals(SessionStatus.COMPLETED, EngineFixture.awaitEnd(only("report")).status());
        assertEquals(SessionStatus.FAILED, EngineFixture.awaitEnd(only("worse")).status());

        Session web = only("web");
        Await.until(WAIT, "web to be skipped", () -> web.status() == SessionStatus.SKIPPED);
        assertEquals("db is disabled", web.snapshot().reason());
        assertTrue(runsOf("db").isEmpty(), "a disabled command has no session");
    }

    @Test
    void aShutdownCommandOrSignalReplacesTheTermOfEveryKill() throws Exception {
        Workspace ws = workspace("""
                commands:
                  byCommand:
                    command: trap 'echo got-usr1; exit 0' USR1; trap 'echo got-term; exit 0' TERM; echo $$ > server.pid; while :; do sleep 0.1; done
                    shell: /bin/sh
                    shutdown: {command: "echo asked > asked; kill -USR1 $(cat server.pid)", timeout: 20s}
                  bySignal:
                    command: trap 'echo got-int; exit 0' INT; trap 'echo got-term; exit 0' TERM; echo started; while :; do sleep 0.1; done
                    shell: /bin/sh
                    shutdown: {signal: INT}
                """);
        stack.up(ws, List.of("byCommand", "bySignal"), Map.of());
        Session byCommand = only("byCommand");
        Session bySignal = only("bySignal");
        Await.until(WAIT, "both to run", () -> Files.exists(ws.root().resolve("server.pid")) && outputQuietly(bySignal).contains("started"));
        assertEquals(Duration.ofSeconds(20), byCommand.spec().grace(), "the shutdown timeout is the kill's grace");

        stack.down(ws.file().toString(), List.of());
        SessionSnapshot c = EngineFixture.awaitEnd(byCommand);
        SessionSnapshot s = EngineFixture.awaitEnd(bySignal);
        assertEquals(SessionStatus.KILLED, c.status(), "a shutdown step is how the kill begins");
        assertTrue(Files.exists(ws.root().resolve("asked")), "the shutdown command ran in the command's folder");
        assertTrue(output(byCommand).contains("got-usr1") && !output(byCommand).contains("got-term"), output(byCommand));
        assertTrue(c.killReport().notes().stream().anyMatch(n -> n.contains("shutdown command ran")), c.killReport().notes().toString());
        assertTrue(output(bySignal).contains("got-int") && !output(bySignal).contains("got-term"), output(bySignal));
        assertEquals("INT", s.killReport().signal());
    }

    private static String outputQuietly(Session s) {
        try {
            return output(s);
        } catch (Exception e) {
            return "";
        }
    }

    @Test
    void aFailingLivenessProbeEndsTheRunFailedAndItsPolicyRestartsIt() throws Exception {
        Workspace ws = workspace("""
                commands:
                  api:
                    command: touch alive; exec sleep 60
                    shell: /bin/sh
                    restart: on-failure
                    backoff: {initial: 200ms, limit: 1}
                    liveness: {exec: "test -f alive", period: 200ms, failures: 2, initial_delay: 300ms}
                """);
        stack.up(ws, List.of("api"), Map.of());
        Path alive = ws.root().resolve("alive");
        Session first = only("api");
        Await.until(WAIT, "api to run", () -> first.status() == SessionStatus.RUNNING && Files.exists(alive));
        Files.delete(alive);
        SessionSnapshot end = EngineFixture.awaitEnd(first);
        assertEquals(SessionStatus.FAILED, end.status());
        assertEquals("liveness: 2 probes failed in a row; restarting", end.reason());

        Await.until(WAIT, "the restart to run", () -> runsOf("api").size() == 2 && runsOf("api").get(1).status() == SessionStatus.RUNNING
                && Files.exists(alive));
        Session second = runsOf("api").get(1);
        Files.delete(alive);
        SessionSnapshot last = EngineFixture.awaitEnd(second);
        assertEquals("liveness: 2 probes failed in a row", last.reason(), "the last allowed run promises no restart");
        Await.until(WAIT, "the chain to be over", () -> stack.isOver(second));
        assertEquals(2, runsOf("api").size());
    }

    @Test
    void anHttpLivenessProbeSendsItsHeadersAndExpectsItsStatus() throws Exception {
        int port = StackScenarios.freePort();
        Workspace ws = workspace("""
                commands:
                  web:
                    command: |-
                      touch healthy; exec perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => %d, Listen => 5, ReuseAddr => 1) or die "listen: $!"; while ($c = $s->accept) { $h = ""; while (defined($l = <$c>) && $l ne "\\r\\n") { $h .= $l } $ok = -e "healthy" && $h =~ /^X-Probe: yes/mi; print $c ($ok ? "HTTP/1.0 204 No Content\\r\\n\\r\\n" : "HTTP/1.0 500 Oops\\r\\nContent-Length: 0\\r\\n\\r\\n"); close $c; open(F, ">>served"); print F "x\\n"; close F }'
                    shell: /bin/sh
                    liveness: {http: "http://127.0.0.1:%d/live", status: 204, headers: {X-Probe: "yes"}, period: 200ms, failures: 2,
                               initial_delay: 3s}
                """.formatted(port, port));
        stack.up(ws, List.of("web"), Map.of());
        Session web = only("web");
        Path served = ws.root().resolve("served");
        // Two wrong answers in a row would have ended it: three probes answered with it running means they passed.
        // (The initial delay gives perl time to listen on a loaded machine: two refused connects 200 ms apart ended it.)
        Await.until(WAIT, "three probes answered", () -> {
            try {
                return Files.exists(served) && Files.readAllLines(served).size() >= 3;
            } catch (java.io.IOException e) {
                return false;
            }
        });
        assertEquals(SessionStatus.RUNNING, web.status(), "204 with the header sent: alive");
        Files.delete(ws.root().resolve("healthy"));
        SessionSnapshot end = EngineFixture.awaitEnd(web);
        assertEquals(SessionStatus.FAILED, end.status());
        assertEquals("liveness: 2 probes failed in a row", end.reason(), "restart: never: no restart promised");
    }

    @Test
    void logFileHoldsTheRunsOutputAsTheCaptureDoes() throws Exception {
        Workspace ws = workspace("""
                commands:
                  build:
                    command: echo one; echo two >&2; printf 'three'
                    shell: /bin/sh
                    log_file: logs/build.log
                """);
        stack.up(ws, List.of("build"), Map.of());
        Session build = only("build");
        EngineFixture.awaitEnd(build);
        Path log = ws.root().resolve("logs/build.log");
        assertEquals("one\ntwo\nthree", Files.readString(log));
        assertEquals(Files.readString(build.captureFile()), Files.readString(log));
    }

    @Test
    void includedFilesAddTheirCommandsAndANameDefinedTwiceIsALoadError() throws Exception {
        Path sub = Files.createDirectories(root().resolve("services"));
        Files.writeString(sub.resolve("db.yaml"), """
                commands:
                  db:
                    command: pwd > where; exec sleep 60
                    shell: /bin/sh
                """);
        Workspace ws = workspace("""
                include: [services/db.yaml]
                commands:
                  web:
                    command: echo web
                    shell: /bin/sh
                    depends_on: {db: started}
                """);
        assertEquals(List.of("web", "db"), List.copyOf(ws.commands().keySet()));
        dev.runboard.workspace.WorkspaceLoad load = dev.runboard.workspace.WorkspaceLoad.read(root());
        assertEquals(List.of("web", "db"), List.copyOf(load.workspace().commands().keySet()), "the window lists included commands");
        assertEquals(List.of("web"), List.copyOf(load.content().commands().keySet()), "a save writes the file's own commands only");
        stack.up(ws, List.of("web"), Map.of());
        assertEquals(SessionStatus.COMPLETED, EngineFixture.awaitEnd(only("web")).status());
        Await.until(WAIT, "db to write where it runs", () -> Files.exists(sub.resolve("where")));
        assertEquals(sub.toRealPath().toString(), Files.readString(sub.resolve("where")).strip(), "its folder is its own file's");
        stack.down(ws.file().toString(), List.of());

        Files.writeString(sub.resolve("more.yaml"), """
                commands:
                  web: {command: echo other web}
                """);
        Files.writeString(root().resolve("runboard.yaml"), """
                include: [services/db.yaml, services/more.yaml]
                commands:
                  web: {command: echo web}
                """);
        WorkspaceException twice = assertThrows(WorkspaceException.class, () -> Workspace.open(root()));
        assertTrue(twice.getMessage().contains("web is defined twice") && twice.getMessage().contains("runboard.yaml")
                && twice.getMessage().contains("more.yaml"), twice.getMessage());
        assertFalse(twice.getMessage().contains("db.yaml"), twice.getMessage());
    }
}
