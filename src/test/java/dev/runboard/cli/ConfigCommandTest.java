package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.engine.SupervisorFixture.Result;
import dev.runboard.session.OutputRule;
import dev.runboard.store.SettingKeys;
import dev.runboard.store.Settings;
import dev.runboard.store.SettingsStore;
import dev.runboard.store.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runboard config get|set} on a real data dir: the file it writes, what it refuses and how it says so. */
class ConfigCommandTest {
    @TempDir
    Path dataDir;

    private Result cli(String... args) {
        return SupervisorFixture.cli(dataDir, args);
    }

    @Test
    void firstGetWritesEveryDefaultAndItsSchemaPrivately() throws Exception {
        Result all = cli("config", "get");
        assertEquals(0, all.exit(), all.err());
        List<String> lines = all.out().lines().toList();
        assertEquals(SettingKeys.ALL.size(), lines.size(), all.out());
        assertTrue(lines.contains("theme                light"), all.out());
        assertTrue(lines.contains("default_timeout_ms   none"), all.out());

        Path file = dataDir.resolve(SettingsStore.FILE);
        assertEquals(Settings.DEFAULTS, Json.mapper().readValue(file.toFile(), Settings.class));
        JsonNode written = Json.mapper().readTree(file.toFile());
        for (SettingKeys.Key k : SettingKeys.ALL) {
            assertTrue(written.has(k.name()), "settings.json has " + k.name());
        }
        JsonNode schema = Json.mapper().readTree(dataDir.resolve(SettingsStore.SCHEMA_FILE).toFile());
        assertTrue(schema.path("properties").path("keep_finished").path("description").asText().contains("at least 1"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void setTakesValuesAsPeopleWriteThemAndGetReadsThemBack() {
        assertEquals(0, cli("config", "set", "theme", "dark").exit());
        assertEquals(0, cli("config", "set", "default_grace_ms", "5s").exit());
        assertEquals(0, cli("config", "set", "keep_artifact_bytes", "2G").exit());
        assertEquals(0, cli("config", "set", "default_timeout_ms", "1h30m").exit());
        assertEquals(0, cli("config", "set", "default_rules", "[{\"pattern\": \"ERROR\", \"action\": \"fail\"}]").exit());
        assertEquals("dark\n", cli("config", "get", "theme").out());
        assertEquals("5000\n", cli("config", "get", "default_grace_ms").out());
        assertEquals(String.valueOf(2L << 30) + "\n", cli("config", "get", "keep_artifact_bytes").out());
        assertEquals("5400000\n", cli("config", "get", "default_timeout_ms").out());
        Settings saved = new SettingsStore(dataDir).load().settings();
        assertEquals("ERROR", saved.defaultRules().get(0).pattern());
        assertEquals(0, cli("config", "set", "default_rules", "[{\"pattern\": \"WARN\", \"action\": \"HIGHLIGHT\"}]").exit());
        assertEquals("[{\"pattern\":\"WARN\",\"action\":\"highlight\"}]\n", cli("config", "get", "default_rules").out());
        assertEquals(0, cli("config", "set", "default_timeout_ms", "none").exit());
        assertEquals("none\n", cli("config", "get", "default_timeout_ms").out());
    }

    @Test
    void defaultRulesAreWrittenInTheSchemasSpellingAndReadBack() throws Exception {
        assertEquals(0, cli("config", "set", "default_rules",
                "[{\"pattern\": \"WARN\", \"action\": \"HIGHLIGHT\"}, {\"pattern\": \"FATAL\", \"action\": \"fail\"}]").exit());
        JsonNode file = Json.mapper().readTree(dataDir.resolve(SettingsStore.FILE).toFile());
        JsonNode schema = Json.mapper().readTree(dataDir.resolve(SettingsStore.SCHEMA_FILE).toFile());
        assertEquals("highlight", file.path("default_rules").get(0).path("action").asText(), file.toString());
        assertEquals("fail", file.path("default_rules").get(1).path("action").asText(), file.toString());
        JsonNode allowed = schema.path("properties").path("default_rules").path("items").path("properties").path("action").path("enum");
        assertEquals("[\"highlight\",\"fail\",\"notify\"]", allowed.toString());
        assertEquals(List.of(new OutputRule("WARN", OutputRule.Action.HIGHLIGHT), new OutputRule("FATAL", OutputRule.Action.FAIL)),
                new SettingsStore(dataDir).load().settings().defaultRules(), "the file reads back to the same rules");
    }

    @Test
    void theSupervisorPrunesByTheRetentionSetWhileItRuns() throws Exception {
        try (SupervisorFixture supervisor = new SupervisorFixture(dataDir)) {
            for (int i = 0; i < 3; i++) {
                String id = cli("start", "--shell", "/bin/sh", "--", "echo " + i).out().strip();
                assertEquals(0, cli("wait", id).exit());
            }
            assertEquals(3, Json.mapper().readTree(cli("list", "--json").out()).size());
            assertEquals(0, cli("config", "set", "keep_finished", "1").exit());
            String last = cli("start", "--shell", "/bin/sh", "--", "echo last").out().strip();
            assertEquals(0, cli("wait", last).exit());
            dev.runboard.process.Await.until(java.time.Duration.ofSeconds(30), "the prune by the new limit", () -> {
                try {
                    JsonNode left = Json.mapper().readTree(cli("list", "--json").out());
                    return left.size() == 1 && left.get(0).get("session_id").asText().equals(last);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
    }

    @Test
    void invalidValuesAndKeysAreNamedWithWhatIsAllowedAndChangeNothing() throws Exception {
        cli("config", "get");
        byte[] before = Files.readAllBytes(dataDir.resolve(SettingsStore.FILE));
        Result theme = cli("config", "set", "theme", "purple");
        assertEquals(2, theme.exit());
        assertEquals("runboard config set: invalid value 'purple' for theme (allowed: light or dark)\n", theme.err());
        Result nice = cli("config", "set", "default_nice", "-5");
        assertTrue(nice.err().contains("for default_nice (allowed: a whole number from 0 to 19)"), nice.err());
        Result grace = cli("config", "set", "default_grace_ms", "soon");
        assertTrue(grace.err().contains("'soon' for default_grace_ms (allowed: a duration"), grace.err());
        Result rules = cli("config", "set", "default_rules", "[{\"pattern\": \"(\", \"action\": \"fail\"}]");
        assertTrue(rules.err().contains("output rule /(/ is not a valid regex: Unclosed group"), rules.err());
        Result everyLine = cli("config", "set", "default_rules", "[{\"pattern\": \".*\", \"action\": \"fail\"}]");
        assertEquals(2, everyLine.exit());
        assertTrue(everyLine.err().contains("output rule /.*/ matches every line"), everyLine.err());
        Result notARule = cli("config", "set", "default_rules", "[{\"regex\": \"x\"}]");
        assertTrue(notARule.err().contains("is not a pattern with an action"), notARule.err());
        Result key = cli("config", "get", "colour");
        assertEquals(2, key.exit());
        assertTrue(key.err().contains("unknown setting 'colour' (settings: theme, "), key.err());
        org.junit.jupiter.api.Assertions.assertArrayEquals(before, Files.readAllBytes(dataDir.resolve(SettingsStore.FILE)));
        assertFalse(theme.out().contains("purple"));
    }
}
