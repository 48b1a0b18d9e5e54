package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionState;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A supervisor that stops (or dies) between launching a waiting session's command and writing the
 * record that says it runs: the record still says pending. The next supervisor ended it "not started"
 * while its command ran on, unowned, and `up` started a second copy (CI, on a loaded machine). It
 * takes it over as running: the same process, its kill ends it.
 */
class LaunchedBeforeRecordTest {
    @TempDir
    Path dataDir;

    @Test
    void aPendingRecordWhoseCommandWasLaunchedIsTakenOverAsRunning() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            SessionSpec spec = SessionSpec.shell("echo up; exec sleep 60").shell(Path.of("/bin/sh")).cwd(dataDir).build();
            String id = fx.client().start(spec);
            JsonNode running = fx.client().show(id).json();
            long wrapper = running.path("pid").asLong();
            Await.until(Duration.ofSeconds(30), "its output", () -> {
                try {
                    return fx.client().show(id).json().path("output").asText().contains("up");
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            ProcessHandle supervisor = ProcessHandle.of(fx.supervisorPid()).orElseThrow();
            supervisor.destroyForcibly(); // SIGKILL: as one stopped between the launch and the record
            supervisor.onExit().join();

            // What a supervisor gone between the launch and that record leaves: a pending record.
            SessionStore store = new SessionStore(dataDir);
            SessionRecord pending = SessionRecord.of(id, store.load(id).orElseThrow().spec().toSpec(),
                    new SessionState.Waiting(java.time.Instant.parse(running.path("started_at").asText()),
                            SessionStatus.PENDING, "starting", null));
            store.save(pending);

            JsonNode shown = fx.client().show(id).json(); // brings the next supervisor up
            assertEquals("running", shown.path("status").asText(), "not ended as never started: " + shown);
            assertEquals(wrapper, shown.path("pid").asLong(), "the same wrapper");
            assertTrue(ProcessHandle.of(wrapper).map(ProcessHandle::isAlive).orElse(false));
            fx.client().kill(id, Signal.TERM, Duration.ofSeconds(1));
            JsonNode last = fx.client().await(id).json();
            assertEquals("killed", last.path("status").asText(), last.toString());
            Await.until(Duration.ofSeconds(10), "its wrapper gone", () -> ProcessHandle.of(wrapper).map(h -> !h.isAlive()).orElse(true));
        }
    }
}
