package dev.runboard.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** process-compose's depends_on, readiness probes and availability survive discovery, in runboard's keys. */
class ProcessComposeImportTest {
    @Test
    void dependenciesProbesAndRestartsAreKept() throws Exception {
        List<DiscoveredCommand> found = CommandDiscovery.processCompose("""
                version: "0.5"
                processes:
                  db:
                    command: postgres -D data
                    readiness_probe:
                      exec:
                        command: pg_isready
                      period_seconds: 2
                      failure_threshold: 4
                  migrate:
                    command: ./migrate.sh
                    depends_on:
                      db:
                        condition: process_healthy
                  web:
                    command: npm start
                    depends_on:
                      db: {condition: process_started}
                      migrate: {condition: process_completed_successfully}
                    readiness_probe:
                      http_get: {host: 127.0.0.1, port: 8080, path: /health}
                    availability:
                      restart: on_failure
                      backoff_seconds: 3
                      max_restarts: 4
                """, "process-compose.yaml");
        Map<String, WorkspaceCommand> byName = new java.util.LinkedHashMap<>();
        found.forEach(d -> byName.put(d.name(), d.command()));
        assertEquals("pg_isready", byName.get("db").ready().exec());
        assertEquals(Duration.ofSeconds(2), byName.get("db").ready().period());
        assertEquals(4, byName.get("db").ready().failures());
        assertEquals(Map.of("db", "ready"), byName.get("migrate").dependencies());
        WorkspaceCommand web = byName.get("web");
        assertEquals(Map.of("db", "started", "migrate", "succeeded"), web.dependencies());
        assertEquals("http://127.0.0.1:8080/health", web.ready().http());
        assertEquals("on-failure", web.restartPolicy());
        assertEquals(new RestartBackoff(Duration.ofSeconds(3), Duration.ofSeconds(3), 4, null), web.backoff());
        assertNull(byName.get("db").restart());

        // Imported together, the commands make a file that loads (every dependency is named in it).
        WorkspaceFile file = new WorkspaceFile(null, byName);
        assertEquals(file, WorkspaceYaml.parse(WorkspaceYaml.write(file), Path.of("runboard.yaml")));
    }

    @Test
    void restartLimitsLogLinesAndShutdownMapFaithfullyAndWhatIsDroppedIsNamed() throws Exception {
        List<DiscoveredCommand> found = CommandDiscovery.processCompose("""
                processes:
                  db:
                    command: postgres
                    ready_log_line: "ready to accept connections (port 5432)"
                    is_daemon: true
                    shutdown: {command: "pg_ctl stop", timeout_seconds: 20, signal: 2, parent_only: true}
                    availability: {restart: always, max_restarts: 0}
                    description: the database
                  web:
                    command: npm start
                    depends_on: {db: {condition: process_log_ready}}
                    availability: {restart: exit_on_failure}
                    liveness_probe:
                      http_get: {host: 127.0.0.1, port: 8080, path: /live, status_code: 204, headers: {X-Probe: ["1"]}}
                      initial_delay_seconds: 5
                      success_threshold: 2
                    disabled: true
                    log_location: logs/web.log
                """, "process-compose.yaml");
        Map<String, DiscoveredCommand> byName = new java.util.LinkedHashMap<>();
        found.forEach(d -> byName.put(d.name(), d));
        WorkspaceCommand db = byName.get("db").command();
        assertEquals(RestartBackoff.UNLIMITED, db.backoff().limitOrDefault(), "max_restarts 0 is no limit there");
        assertTrue(java.util.regex.Pattern.compile(db.ready().log()).matcher("LOG: ready to accept connections (port 5432)").find());
        assertEquals(new ShutdownKey("pg_ctl stop", "INT", Duration.ofSeconds(20)), db.shutdown());
        assertEquals("the database", db.description());
        List<String> dbDropped = byName.get("db").dropped();
        assertTrue(dbDropped.stream().anyMatch(d -> d.startsWith("is_daemon")), dbDropped.toString());
        assertTrue(dbDropped.stream().anyMatch(d -> d.startsWith("shutdown.parent_only")), dbDropped.toString());

        WorkspaceCommand web = byName.get("web").command();
        assertEquals(Map.of("db", "ready"), web.dependencies(), "process_log_ready waits for db's ready line");
        assertNull(web.restart(), "exit_on_failure ends process-compose there: no restart here");
        assertTrue(byName.get("web").dropped().stream().anyMatch(d -> d.contains("exit_on_failure") && d.contains("--abort-on-failure")));
        assertEquals(204, web.liveness().status());
        assertEquals(Map.of("X-Probe", "1"), web.liveness().headers());
        assertEquals(Duration.ofSeconds(5), web.liveness().initialDelay());
        assertEquals(2, web.liveness().successThreshold());
        assertTrue(web.turnedOff());
        assertEquals("logs/web.log", web.logFile());

        // The file they make says unlimited as a person would, and reads back the same.
        WorkspaceFile file = new WorkspaceFile(null, Map.of("db", db, "web", web));
        String yaml = WorkspaceYaml.write(file);
        assertTrue(yaml.contains("limit: unlimited"), yaml);
        assertEquals(file, WorkspaceYaml.parse(yaml, Path.of("runboard.yaml")));
    }
}
