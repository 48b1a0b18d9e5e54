package dev.runboard.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
}
