package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.engine.SupervisorFixture.Result;
import dev.runboard.store.Json;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code list} and {@code show} over a store holding records that are valid JSON but wrong: they
 * are moved aside, the others are listed. (All sessions here have ended: nothing is started.)
 */
class BadRecordsCliTest {
    private static final String OLD_FAILED = "20261201-000739-3604d5";
    private static final String OLD_TIMEOUT = "20261201-000740-ae9e18";

    @TempDir
    Path dataDir;

    /** list and show brought a supervisor up (to adopt what runs): it goes with the test. */
    @org.junit.jupiter.api.AfterEach
    void stopTheSupervisor() throws Exception {
        new dev.runboard.engine.SupervisorFixture(dataDir).close();
    }

    @Test
    void wrongRecordsAreMovedAsideAndEveryCommandStillWorks() throws Exception {
        record(OLD_FAILED, resource(OLD_FAILED));
        record(OLD_TIMEOUT, resource(OLD_TIMEOUT));
        String old = new String(resource(OLD_FAILED), java.nio.charset.StandardCharsets.UTF_8);
        record("20261201-000800-000001", old.replace(OLD_FAILED, "20261201-000800-000001").replaceFirst("\"spec\"", "\"no_spec\""));
        record("20261201-000800-000002", old.replace(OLD_FAILED, "20261201-000800-000002")
                .replaceFirst("\"started_at\" : \"[^\"]*\"", "\"started_at\" : null"));
        record("20261201-000800-000003", old.replace(OLD_FAILED, "20261201-000800-000003")
                .replaceFirst("\"cwd\" : \"[^\"]*\"", "\"cwd\" : null"));
        record("20261201-000800-000004", old.replace(OLD_FAILED, "../../x"));
        record("20261201-000800-000005", old.replace(OLD_FAILED, "20261201-000800-000005")
                .replaceFirst("\"output_head\" : \"", "\"output_head\" : \"%%%"));
        // A time as a number (read as seconds since 1970, 1e300 was 1970 and 499,043 hours elapsed), or not a time.
        record("20261201-000800-000006", old.replace(OLD_FAILED, "20261201-000800-000006")
                .replaceFirst("\"started_at\" : \"[^\"]*\"", "\"started_at\" : 1e300"));
        record("20261201-000800-000007", old.replace(OLD_FAILED, "20261201-000800-000007")
                .replaceFirst("\"started_at\" : \"[^\"]*\"", "\"started_at\" : \"yesterday\""));

        Result list = cli("list", "--json");
        assertEquals(0, list.exit(), list.err());
        List<String> ids = new ArrayList<>();
        Json.mapper().readTree(list.out()).forEach(s -> ids.add(s.get("session_id").asText()));
        assertEquals(List.of(OLD_FAILED, OLD_TIMEOUT), ids);
        try (var moved = Files.list(dataDir.resolve("corrupt"))) {
            assertEquals(7, moved.count());
        }

        Result show = cli("show", OLD_TIMEOUT);
        assertEquals(0, show.exit(), show.err());
        JsonNode shown = Json.mapper().readTree(show.out());
        assertEquals("timeout", shown.get("status").asText());
        assertTrue(shown.get("output").asText().contains("started"), show.out());
    }

    @Test
    void askedForByIdASetAsideRecordIsNamedWithWhereItsOutputIs() throws Exception {
        String id = "20261201-000800-000009";
        String old = new String(resource(OLD_FAILED), java.nio.charset.StandardCharsets.UTF_8);
        record(id, old.replace(OLD_FAILED, id).substring(0, 200)); // cut short: not JSON
        Path capture = Files.writeString(dataDir.resolve("sessions").resolve(id).resolve("capture.log"), "its output\n");
        assertEquals(0, cli("list").exit(), "listing moves it aside");
        Result list = cli("list");
        assertEquals(0, list.exit(), list.err());
        assertTrue(list.err().contains("runboard list: note: 1 session is not listed: its record was not valid and set aside in "
                + dataDir.resolve("corrupt")), "list says a session is missing, and where to look: " + list.err());

        for (String command : List.of("show", "tail", "wait", "kill")) {
            Result asked = cli(command, id.substring(0, 19));
            assertEquals(2, asked.exit(), command + ": " + asked.err());
            assertTrue(asked.err().contains("no session " + id.substring(0, 19) + " in " + dataDir + ": the record of session "
                    + id + " was not valid and was moved to " + dataDir.resolve("corrupt").resolve(id + "-session.json")
                    + "; its output is kept at " + capture), command + ": " + asked.err());
            assertEquals(1, asked.err().lines().count(), command + ": one line, no log lines: " + asked.err());
        }
    }

    @Test
    void askedForByIdARecordOfANewerRunboardSaysToUpgrade() throws Exception {
        String old = new String(resource(OLD_FAILED), java.nio.charset.StandardCharsets.UTF_8);
        record(OLD_FAILED, old.replaceFirst("\\{", "{\n  \"schema\" : 99,"));
        assertEquals(0, cli("list").exit(), "the data dir made private first: its warning is not what this test reads");
        for (String command : List.of("show", "tail", "history")) {
            Result asked = cli(command, OLD_FAILED);
            assertEquals(2, asked.exit(), command + ": " + asked.err());
            assertTrue(asked.err().contains(": the record of session " + OLD_FAILED + " was written by a newer runboard"),
                    command + ": " + asked.err());
            assertTrue(asked.err().contains("upgrade this one, to see it"), command + ": " + asked.err());
            assertEquals(1, asked.err().lines().count(), command + ": one line, no log lines: " + asked.err());
        }
        assertTrue(Files.exists(dataDir.resolve("sessions").resolve(OLD_FAILED).resolve("session.json")),
                "a newer runboard's record stays where that runboard reads it");
    }

    @Test
    void anEmptyIdNamesNoSession() throws Exception {
        record(OLD_FAILED, resource(OLD_FAILED));
        for (String command : List.of("show", "tail", "history", "wait")) {
            Result asked = cli(command, "");
            assertEquals(2, asked.exit(), command + ": " + asked.err());
            assertTrue(asked.err().contains("no session id given"), command + ": " + asked.err());
        }
    }

    @Test
    void aRecordWhoseCaptureFileIsOutsideItsFolderIsNotReadByTailOrGrep(@TempDir Path elsewhere) throws Exception {
        Path secret = Files.writeString(elsewhere.resolve("secret.txt"), "hunter2 is the password\n");
        Result exec = cli("exec", "--shell", "/bin/sh", "--", "echo hunter2 was here");
        assertEquals(0, exec.exit(), exec.err());
        String id = Json.mapper().readTree(exec.out()).get("session_id").asText();
        Path json = dataDir.resolve("sessions").resolve(id).resolve("session.json");
        String own = Json.mapper().readTree(Files.readAllBytes(json)).get("capture_file").asText();
        Files.writeString(json, Files.readString(json).replace(own, secret.toString())); // as a hostile tool would

        Result tail = cli("tail", id);
        assertEquals(2, tail.exit(), tail.out());
        assertTrue(!tail.out().contains("password"), "the file the record points to is not printed: " + tail.out());
        assertTrue(tail.err().contains("runboard tail: session " + id + "'s record names its output as " + secret
                + ", outside its place in the data dir"), tail.err());
        assertEquals(1, tail.err().lines().count(), tail.err());

        Result grep = cli("grep", "hunter2");
        assertEquals(2, grep.exit(), grep.out());
        assertTrue(!grep.out().contains("password"), grep.out());
        assertTrue(grep.err().contains("outside its place in the data dir"), grep.err());

        Result show = cli("show", id);
        assertEquals(0, show.exit(), show.err());
        JsonNode shown = Json.mapper().readTree(show.out());
        assertTrue(shown.get("capture_file").isNull(), "show names no file outside: " + show.out());
        assertEquals("outside_data_dir", shown.get("artifact_error_code").asText());
        assertTrue(Files.exists(secret), "and nothing deletes it");
    }

    private void record(String folder, String json) throws Exception {
        record(folder, json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private void record(String folder, byte[] json) throws Exception {
        Path dir = Files.createDirectories(dataDir.resolve("sessions").resolve(folder));
        Files.write(dir.resolve("session.json"), json);
    }

    private static byte[] resource(String id) throws Exception {
        try (InputStream in = BadRecordsCliTest.class.getResourceAsStream("/records/schema1/" + id + "/session.json")) {
            return in.readAllBytes();
        }
    }

    private Result cli(String... args) {
        return SupervisorFixture.cli(dataDir, args);
    }
}
