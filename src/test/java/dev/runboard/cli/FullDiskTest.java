package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.engine.SupervisorFixture.Result;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.Json;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data dir on a 1 MiB file system, filled by a session's output: the session still gets its
 * final record (written into room set aside when it started), says the disk was full and how much
 * output was kept, and keeps its real exit code; a session with no room for its record never starts.
 */
class FullDiskTest {
    @TempDir
    Path tmp;

    private final RootTools root = new RootTools();
    private Path dataDir;

    @AfterEach
    void unmount() throws Exception {
        try {
            if (dataDir != null && Files.isDirectory(dataDir.resolve("sessions"))) {
                new SupervisorFixture(dataDir).close(); // the supervisor list started, and anything a failure left running
            }
        } finally {
            root.close();
        }
    }

    private Result cli(String... args) {
        return SupervisorFixture.cli(dataDir, args);
    }

    @Test
    void aSessionThatFillsTheDiskIsRecordedWithItsExitCodeAndTheNextCannotStart() throws Exception {
        dataDir = tmp.resolve("data");
        root.mountTmpfs(dataDir, "1m");

        Result exec = cli("exec", "--shell", "/bin/sh", "--", "head -c 10000000 /dev/zero; exit 5");
        assertEquals(5, exec.exit(), exec.err());
        JsonNode snapshot = Json.mapper().readTree(exec.out());
        String id = snapshot.get("session_id").asText();
        assertEquals("failed", snapshot.get("status").asText());
        assertEquals(5, snapshot.get("exit_code").asInt());
        assertEquals("disk_full", snapshot.get("artifact_error_code").asText());
        Path kept = Path.of(snapshot.get("raw_output").asText());
        long keptBytes = Files.size(kept);
        assertTrue(keptBytes > 500_000 && keptBytes < 1024 * 1024, "the capture filled what the disk had: " + keptBytes);
        assertEquals(keptBytes, snapshot.get("output_bytes").asLong());
        String error = snapshot.get("artifact_error").asText();
        assertTrue(error.startsWith("the disk was full when the command ended ("), error);
        assertTrue(error.contains("any output written after it filled was lost; the " + keptBytes + " bytes written before are kept at "
                + kept), error);

        SessionRecord record = new SessionStore(dataDir).load(id).orElseThrow();
        assertEquals(SessionStatus.FAILED, record.status());
        assertEquals(5, record.exitCode());
        assertEquals("disk_full", record.artifactErrorCode());
        try (var files = Files.list(new SessionStore(dataDir).dirOf(id))) {
            assertEquals(java.util.Set.of("session.json", "lock"), files.map(f -> f.getFileName().toString())
                    .collect(java.util.stream.Collectors.toSet()), "the record (the capture is the artifact now), no reserved space left over");
        }

        // The next runboard (the supervisor list brings up) reads the same end from the record.
        Result list = cli("list", "--json");
        assertEquals(0, list.exit(), list.err());
        JsonNode row = null;
        for (JsonNode s : Json.mapper().readTree(list.out())) {
            row = s.get("session_id").asText().equals(id) ? s : row;
        }
        assertTrue(row != null, list.out());
        assertEquals("failed", row.get("status").asText());
        assertEquals(5, row.get("exit_code").asInt());
        assertEquals("disk_full", row.get("artifact_error_code").asText());
        assertEquals(kept.toString(), row.get("raw_output").asText());
        assertEquals("exited with code 5", row.get("reason").asText());
        Result table = cli("list");
        assertTrue(table.out().lines().anyMatch(l -> l.startsWith(id) && l.contains(" failed ") && l.matches(".* 5 .*")), table.out());

        // No room left for another session's record: neither exec nor start launches anything.
        Path marker = tmp.resolve("the-command-ran");
        for (String command : List.of("exec", "start")) {
            Result refused = cli(command, "--shell", "/bin/sh", "--", "touch '" + marker + "'");
            assertEquals(2, refused.exit(), command + ": " + refused.err());
            assertEquals("", refused.out());
            assertEquals(1, refused.err().lines().count(), refused.err());
            assertTrue(refused.err().startsWith("runboard " + command + ": cannot create the session's folder under "
                    + dataDir.resolve("sessions") + ": could not set aside room for the record of session "), refused.err());
            assertTrue(refused.err().contains("the disk is full"), refused.err());
        }
        assertFalse(Files.exists(marker), "no command ran");
        assertEquals(List.of(id), new SessionStore(dataDir).ids(), "no folder is left of the sessions that could not start");
    }
}
