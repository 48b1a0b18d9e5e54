package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.OutputRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsStoreTest {
    @TempDir
    Path dir;

    @Test
    void settingsRoundTripAndMissingFieldsKeepDefaults() throws Exception {
        SettingsStore store = new SettingsStore(dir);
        assertEquals(Settings.DEFAULTS, store.load().settings());
        store.save(Settings.DEFAULTS.withTheme("dark").withRetention(10, 1_000_000));
        assertEquals("dark", store.load().settings().theme());
        assertEquals(10, store.load().settings().keepFinished());
        Files.writeString(dir.resolve("settings.json"), "{\"theme\": \"dark\"}");
        Settings partial = store.load().settings();
        assertEquals("dark", partial.theme());
        assertEquals(200, partial.pollMillis());
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("settings.json"))), "settings are private to their owner");
    }

    @Test
    void defaultRulesRoundTripAndTakeEitherCase() throws Exception {
        SettingsStore store = new SettingsStore(dir);
        List<OutputRule> rules = List.of(OutputRule.failOn("FATAL"), new OutputRule("WARN", OutputRule.Action.HIGHLIGHT));
        store.save(Settings.DEFAULTS.withDefaultRules(rules));
        assertEquals(rules, store.load().settings().defaultRules());
        Files.writeString(dir.resolve("settings.json"),
                "{\"default_rules\": [{\"pattern\": \"ready\", \"action\": \"notify\"}]}");
        assertEquals(List.of(new OutputRule("ready", OutputRule.Action.NOTIFY)), store.load().settings().defaultRules());
        assertEquals(List.of(), Settings.DEFAULTS.defaultRules());
    }

    @Test
    void corruptSettingsFallBackToDefaultsWithAWarning() throws Exception {
        Files.writeString(dir.resolve("settings.json"), "{ not json");
        SettingsStore.Loaded loaded = new SettingsStore(dir).load();
        assertEquals(Settings.DEFAULTS, loaded.settings());
        assertTrue(loaded.warning().orElseThrow().contains("not valid JSON"));
    }

    @Test
    void valuesOfTheWrongKindFallBackAndOutOfRangeValuesAreBroughtIntoRange() throws Exception {
        Files.writeString(dir.resolve("settings.json"), "{\"poll_ms\": \"fast\"}");
        SettingsStore.Loaded wrongKind = new SettingsStore(dir).load();
        assertEquals(Settings.DEFAULTS, wrongKind.settings());
        assertTrue(wrongKind.warning().orElseThrow().contains("has a value runboard cannot use"), wrongKind.warning().get());

        Files.writeString(dir.resolve("settings.json"), "{\"preview_bytes\": 2147483647, \"default_grace_ms\": 9200000000000}");
        Settings clamped = new SettingsStore(dir).load().settings();
        assertEquals(dev.runboard.session.SessionSpec.MAX_PREVIEW_BYTES, clamped.previewBytes());
        assertEquals(dev.runboard.session.SessionSpec.MAX_GRACE.toMillis(), clamped.defaultGraceMillis());
    }

    @Test
    void dataDirFollowsFlagThenRunboardHomeThenXdg() {
        Path home = Path.of("/home/someone");
        assertEquals(Path.of("/flag"), DataDirs.resolve(Path.of("/flag"), java.util.Map.of("RUNBOARD_HOME", "/rb"), home));
        assertEquals(Path.of("/rb"), DataDirs.resolve(null, java.util.Map.of("RUNBOARD_HOME", "/rb", "XDG_DATA_HOME", "/x"), home));
        assertEquals(Path.of("/x/runboard"), DataDirs.resolve(null, java.util.Map.of("XDG_DATA_HOME", "/x"), home));
        assertEquals(home.resolve(".local/share/runboard"), DataDirs.resolve(null, java.util.Map.of("XDG_DATA_HOME", "relative"), home));
    }
}
