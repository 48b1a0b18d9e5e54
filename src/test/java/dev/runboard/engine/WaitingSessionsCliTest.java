package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.store.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Waiting sessions are sessions: {@code kill} (by id or {@code --status pending|queued}) cancels one
 * before it starts, with a report and no trace; it ends {@code killed}, "cancelled before it
 * started", and never runs. {@code remove} says how many sessions and bytes it deleted.
 */
class WaitingSessionsCliTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path work;
    SupervisorFixture sv;

    @BeforeEach
    void setUp() {
        sv = new SupervisorFixture(dataDir);
    }

    @AfterEach
    void tearDown() throws Exception {
        sv.close();
    }

    private String start(String... args) {
        String[] all = new String[args.length + 5];
        all[0] = "start";
        all[1] = "--cwd";
        all[2] = work.toString();
        all[3] = "--shell";
        all[4] = "/bin/sh";
        System.arraycopy(args, 0, all, 5, args.length);
        SupervisorFixture.Result r = sv.cli(all);
        assertEquals(0, r.exit(), r.err());
        return r.out().strip();
    }

    private JsonNode show(String id) throws Exception {
        return Json.mapper().readTree(sv.cli("show", id).out());
    }

    @Test
    void killCancelsPendingAndQueuedSessionsAndRemoveSaysWhatWent() throws Exception {
        assertEquals(0, sv.cli("queue", "q", "--parallel", "1").exit());
        String blocker = start("--queue", "q", "--", "echo started > blocker; sleep 60");
        Await.until(Duration.ofSeconds(30), "the blocker to run", () -> Files.exists(work.resolve("blocker")));
        String queued = start("--queue", "q", "--", "touch ran-queued");
        String pending = start("--after", blocker, "--", "touch ran-pending");
        assertEquals("queued", show(queued).path("status").asText());
        assertEquals("pending", show(pending).path("status").asText());

        SupervisorFixture.Result byId = sv.cli("kill", pending);
        assertEquals(0, byId.exit(), byId.out() + byId.err());
        JsonNode report = Json.mapper().readTree(byId.out());
        assertEquals("cancelled before it started", report.path("reason").asText(), byId.out());
        assertTrue(report.path("signalled").isEmpty() && report.path("survivors").isEmpty(), byId.out());
        assertTrue(byId.err().isEmpty(), "no trace: " + byId.err());
        JsonNode ended = show(pending);
        assertEquals("killed", ended.path("status").asText());
        assertEquals("cancelled before it started", ended.path("reason").asText());

        SupervisorFixture.Result byStatus = sv.cli("kill", "--status", "queued");
        assertEquals(0, byStatus.exit(), byStatus.out() + byStatus.err());
        assertEquals("killed", show(queued).path("status").asText());
        assertEquals("running", show(blocker).path("status").asText(), "the running one is not touched");

        SupervisorFixture.Result removed = sv.cli("remove", "--status", "killed");
        assertEquals(0, removed.exit(), removed.err());
        assertEquals(2, removed.out().strip().lines().count(), removed.out());
        assertTrue(removed.err().startsWith("runboard remove: removed 2 sessions, "), removed.err());
        assertTrue(removed.err().strip().endsWith("of files deleted"), removed.err());
        assertEquals(0, sv.cli("kill", blocker).exit());
        // The queue moves on: a new session in it runs; the cancelled one never does.
        start("--queue", "q", "--", "touch ran-next");
        Await.until(Duration.ofSeconds(30), "the queue to move on", () -> Files.exists(work.resolve("ran-next")));
        assertTrue(!Files.exists(work.resolve("ran-queued")) && !Files.exists(work.resolve("ran-pending")),
                "neither cancelled command ever ran, even once the queue and the dependency freed up");
    }
}
