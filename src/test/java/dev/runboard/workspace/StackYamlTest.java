package dev.runboard.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The orchestration keys of issue #17: read, checked with their line and column, and written back as read. */
class StackYamlTest {
    static final String STACK = """
            commands:
              db:
                command: ./scripts/db.sh
                ready: {tcp: 5432, period: 500ms, timeout: 60s}
              migrate:
                command: ./scripts/migrate.sh
                depends_on: {db: ready}
              web:
                command: npm run dev
                depends_on: {db: ready, migrate: succeeded}
                restart: on-failure
                backoff: {initial: 1s, max: 30s, limit: 5, reset_after: 60s}
                delay: 2s
                group: tests
            groups:
              tests: {parallel: 2}
            """;

    @Test
    void readsTheIssuesExample() throws Exception {
        WorkspaceFile f = WorkspaceYaml.parse(STACK, Path.of("runboard.yaml"));
        WorkspaceCommand db = f.commands().get("db");
        assertEquals("5432", db.ready().tcp());
        assertEquals(Duration.ofMillis(500), db.ready().period());
        assertEquals(Duration.ofSeconds(60), db.ready().timeout());
        assertEquals(Map.of("db", "ready"), f.commands().get("migrate").dependencies());
        WorkspaceCommand web = f.commands().get("web");
        assertEquals(java.util.List.of("db", "migrate"), java.util.List.copyOf(web.dependencies().keySet()));
        assertEquals("on-failure", web.restartPolicy());
        assertEquals(new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 5, Duration.ofSeconds(60)), web.backoff());
        assertEquals(Duration.ofSeconds(2), web.delay());
        assertEquals(2, f.parallelOf("tests"));
        assertEquals(0, f.parallelOf("other"));
        assertEquals("never", db.restartPolicy());
        assertNull(db.backoff());
        assertEquals(f, WorkspaceYaml.parse(WorkspaceYaml.write(f), Path.of("runboard.yaml")), "round trip");
    }

    @Test
    void readsEveryProbeKind() throws Exception {
        WorkspaceFile f = WorkspaceYaml.parse("""
                commands:
                  a: {command: x, ready: {http: "http://localhost:8080/health", failures: 2}}
                  b: {command: x, ready: {log: "listening on \\\\d+"}}
                  c: {command: x, ready: {exec: "pg_isready", period: 2}}
                  d: {command: x, ready: {tcp: "db.local:5432"}}
                """, Path.of("runboard.yaml"));
        assertEquals(2, f.commands().get("a").ready().failuresOrDefault());
        assertEquals("listening on \\d+", f.commands().get("b").ready().log());
        assertEquals(Duration.ofSeconds(2), f.commands().get("c").ready().periodOrDefault());
        assertEquals("db.local:5432", f.commands().get("d").ready().tcp());
    }

    @Test
    void mistakesNameTheirLineAndColumn() {
        WorkspaceException unknown = error("""
                commands:
                  web:
                    command: x
                    depends_on: {db: ready}
                """);
        assertEquals(4, unknown.line(), unknown.getMessage());
        assertTrue(unknown.problem().contains("'db'") && unknown.problem().contains("not a command"), unknown.problem());

        WorkspaceException cycle = error("""
                commands:
                  a:
                    command: x
                    depends_on:
                      b: started
                  b:
                    command: y
                    depends_on:
                      a: ended
                """);
        assertTrue(cycle.problem().contains("cycle: a → b → a"), cycle.problem());
        assertEquals(5, cycle.line(), cycle.getMessage());
        assertEquals(7, cycle.column(), cycle.getMessage());

        WorkspaceException condition = error("""
                commands:
                  db: {command: x}
                  web:
                    command: x
                    depends_on: {db: healthy}
                """);
        assertTrue(condition.problem().contains("'healthy' is not a condition"), condition.problem());
        assertEquals(5, condition.line(), condition.getMessage()); // the key with the bad condition, not the command
        assertEquals(18, condition.column(), condition.getMessage());

        WorkspaceException typo = error("""
                commands:
                  db:
                    command: x
                    ready:
                      tcp: 5432
                      perod: 1s
                """);
        assertEquals(6, typo.line(), typo.getMessage());
        assertTrue(typo.problem().startsWith("unknown key 'perod'"), typo.problem());

        WorkspaceException restart = error("""
                commands:
                  db:
                    command: x
                    restart: sometimes
                """);
        assertTrue(restart.problem().contains("never, on-failure or always"), restart.problem());
        assertTrue(restart.line() > 0, restart.getMessage());

        WorkspaceException delay = error("""
                commands:
                  db:
                    command: x
                    delay: soon
                """);
        assertEquals(4, delay.line(), delay.getMessage());

        WorkspaceException parallel = error("""
                commands:
                  db: {command: x}
                groups:
                  tests: {parallel: 0}
                """);
        assertTrue(parallel.problem().contains("'parallel' must be 1 or more"), parallel.problem());

        WorkspaceException twoProbes = error("""
                commands:
                  db:
                    command: x
                    ready: {tcp: 1, exec: y}
                """);
        assertTrue(twoProbes.problem().contains("one probe"), twoProbes.problem());

        for (String port : java.util.List.of("70000", "0", "db.local:65536")) {
            WorkspaceException noSuchPort = error("""
                    commands:
                      db:
                        command: x
                        ready: {tcp: "%s"}
                    """.formatted(port));
            assertTrue(noSuchPort.problem().contains("'tcp' port must be 1 to 65535, not " + Integer.parseInt(port.replaceAll(".*:", ""))),
                    noSuchPort.problem());
        }
    }

    @Test
    void issue45sKeysReadRoundTripAndSayWhatIsWrongAtTheirLine() throws Exception {
        WorkspaceFile f = WorkspaceYaml.parse("""
                commands:
                  db:
                    command: postgres
                    description: the database
                    success_exit_codes: [0, 3]
                    log_file: logs/db.log
                    shutdown: {command: "pg_ctl stop", timeout: 30s}
                    liveness:
                      http: "http://127.0.0.1:5432/"
                      status: 204
                      headers: {X-Probe: "1"}
                      initial_delay: 5s
                      success_threshold: 2
                      failures: 4
                    restart: always
                    backoff: {limit: unlimited}
                  old: {command: x, disabled: true}
                """, Path.of("runboard.yaml"));
        WorkspaceCommand db = f.commands().get("db");
        assertEquals(java.util.List.of(0, 3), db.successExitCodes());
        assertEquals(new ShutdownKey("pg_ctl stop", null, Duration.ofSeconds(30)), db.shutdown());
        assertEquals(Duration.ofSeconds(30), db.toSpec(Path.of("/w")).grace(), "the shutdown timeout is the kill grace");
        assertEquals(204, db.liveness().status());
        assertTrue(db.backoff().unlimited());
        assertTrue(f.commands().get("old").turnedOff());
        assertEquals(f, WorkspaceYaml.parse(WorkspaceYaml.write(f), Path.of("runboard.yaml")), "round trip");

        WorkspaceException code = error("""
                commands:
                  db:
                    command: x
                    success_exit_codes: [0, 300]
                """);
        assertTrue(code.problem().contains("an exit code is 0 to 255"), code.problem());
        assertEquals(4, code.line(), code.getMessage());

        WorkspaceException limit = error("""
                commands:
                  db:
                    command: x
                    restart: always
                    backoff: {limit: lots}
                """);
        assertTrue(limit.problem().contains("number of restarts (0: none) or unlimited"), limit.problem());
        assertEquals(5, limit.line(), limit.getMessage());

        WorkspaceException shutdown = error("""
                commands:
                  db:
                    command: x
                    shutdown: {timeout: 5s}
                """);
        assertTrue(shutdown.problem().contains("'shutdown' needs a command or a signal"), shutdown.problem());

        WorkspaceException liveness = error("""
                commands:
                  db:
                    command: x
                    liveness: {exec: "true", status: 200}
                """);
        assertTrue(liveness.problem().contains("'status' and 'headers' go with an http probe"), liveness.problem());
    }

    private static WorkspaceException error(String yaml) {
        return assertThrows(WorkspaceException.class, () -> WorkspaceYaml.parse(yaml, Path.of("runboard.yaml")));
    }
}
