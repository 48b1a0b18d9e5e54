package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.session.SecretEnv;
import dev.runboard.store.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue #45: an env_file's values and secret-looking names are masked in every printed snapshot, and reach the command. */
class SecretEnvCliTest {
    static final String FILE_SECRET = "s3cr3t-from-the-env-file";
    static final String NAMED_SECRET = "tok-by-its-name";

    @TempDir
    Path dir;
    SupervisorFixture sv;

    @BeforeEach
    void setUp() {
        sv = new SupervisorFixture(dir.resolve("data"));
    }

    @AfterEach
    void tearDown() throws Exception {
        sv.close();
    }

    private static void absent(String printed, String where) {
        assertFalse(printed.contains(FILE_SECRET), where + " shows the env_file's value: " + printed);
        assertFalse(printed.contains(NAMED_SECRET), where + " shows the token: " + printed);
    }

    @Test
    void secretsAreAbsentFromEveryPrintedFormAndPresentForTheCommand() throws Exception {
        Path root = Files.createDirectories(dir.resolve("app"));
        Files.writeString(root.resolve(".env"), "DATABASE_URL=\"" + FILE_SECRET + "\"\n");
        Path file = Files.writeString(root.resolve("runboard.yaml"), """
                environment:
                  GREETING: hello
                env_file: .env
                commands:
                  job:
                    command: echo "$DATABASE_URL $API_TOKEN $GREETING" > seen.txt
                    shell: /bin/sh
                    autostart: true
                    restart: never
                    env:
                      API_TOKEN: %s
                """.formatted(NAMED_SECRET));
        SupervisorFixture.Result up = sv.cli("up", "-f", file.toString());
        assertEquals(0, up.exit(), up.out() + up.err());
        String id = up.out().strip().split("\\s+")[0];
        Await.until(Duration.ofSeconds(60), "the job to end", () -> {
            SupervisorFixture.Result show = sv.cli("show", id);
            return show.out().contains("\"completed\"");
        });
        assertEquals(FILE_SECRET + " " + NAMED_SECRET + " hello\n", Files.readString(root.resolve("seen.txt")),
                "the command had every value");

        SupervisorFixture.Result show = sv.cli("show", id);
        absent(show.out(), "show");
        JsonNode env = Json.mapper().readTree(show.out()).path("env");
        assertEquals(SecretEnv.MASK, env.path("DATABASE_URL").asText());
        assertEquals(SecretEnv.MASK, env.path("API_TOKEN").asText());
        assertEquals("hello", env.path("GREETING").asText(), "other values print as they are");
        absent(sv.cli("list", "--json").out(), "list --json");
        absent(sv.cli("list").out(), "list");
        absent(sv.cli("history", id, "--json").out(), "history");

        SupervisorFixture.Result revealed = sv.cli("show", "--reveal", id);
        assertEquals(FILE_SECRET, Json.mapper().readTree(revealed.out()).path("env").path("DATABASE_URL").asText());
        assertTrue(sv.cli("list", "--json", "--reveal").out().contains(NAMED_SECRET));

        // The record keeps them, readable by its owner only, so that a rerun runs the same.
        Path record = sv.dataDir().resolve("sessions").resolve(id).resolve(dev.runboard.store.SessionStore.RECORD);
        assertTrue(Files.readString(record).contains(FILE_SECRET), "the record keeps the value");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(record)));

        // exec's final JSON, from its own engine: a name the patterns match is masked there too.
        SupervisorFixture.Result exec = sv.cli("exec", "--env", "MY_PASSWORD=" + NAMED_SECRET, "--", "true");
        assertEquals(0, exec.exit(), exec.err());
        absent(exec.out(), "exec");
        assertTrue(exec.out().contains("MY_PASSWORD"), exec.out());
    }

    @Test
    void theSettingsPatternsDecideWhichNamesAreSecret() throws Exception {
        SupervisorFixture.Result set = sv.cli("config", "set", "secret_env_patterns", "*_PIN,session?");
        assertEquals(0, set.exit(), set.err());
        SupervisorFixture.Result start = sv.cli("start", "--env", "CARD_PIN=" + NAMED_SECRET, "--env", "API_TOKEN=plain-now",
                "--", "true");
        assertEquals(0, start.exit(), start.err());
        String id = start.out().strip().split("\\s+")[0];
        JsonNode env = Json.mapper().readTree(sv.cli("show", id).out()).path("env");
        assertEquals(SecretEnv.MASK, env.path("CARD_PIN").asText(), "the settings' pattern");
        assertEquals("plain-now", env.path("API_TOKEN").asText(), "the defaults are replaced, not added to");
        assertEquals(List.of("*_PIN", "session?"), List.of(sv.cli("config", "get", "secret_env_patterns").out().strip()
                .replaceAll("[\\[\\]\"\\s]", "").split(",")));
    }
}
