package dev.runboard.ui.prefs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.store.Settings;
import dev.runboard.store.SettingsStore;
import dev.runboard.ui.common.InlineUiTasks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Preferences form's logic on the real settings file, with every task run inline: no toolkit, no waiting. */
class PreferencesViewModelTest {
    @TempDir
    Path dataDir;

    private final List<String> warnings = new ArrayList<>();

    @Test
    void loadsTheDefaultsRefusesWhatConfigSetRefusesAndSavesOnlyTheChanges() throws Exception {
        SettingsStore store = new SettingsStore(dataDir);
        PreferencesViewModel form = new PreferencesViewModel(store, new InlineUiTasks(), warnings::add);
        form.load().get();
        assertTrue(Files.exists(dataDir.resolve(SettingsStore.FILE)), "the first look writes settings.json with its defaults");
        assertEquals("light", form.field("theme").get());
        assertEquals("", form.problem().get());

        form.field("theme").set("purple");
        assertEquals("invalid value 'purple' for theme (allowed: light or dark)", form.problem().get());

        form.field("theme").set("dark");
        form.field("keep_finished").set("5");
        form.field("default_grace_ms").set("5s");
        assertEquals("", form.problem().get());

        // Two invalid fields: each says its own problem, in words for beside the field (no internal key).
        form.field("keep_finished").set("none");
        form.field("default_grace_ms").set("soon");
        assertEquals("'none' is not allowed: write a whole number of at least 1", form.problem("keep_finished").get());
        assertTrue(form.problem("default_grace_ms").get().startsWith("'soon' is not allowed: write a duration up to "),
                form.problem("default_grace_ms").get());
        assertEquals("", form.problem("theme").get());
        form.field("keep_finished").set("5");
        form.field("default_grace_ms").set("5s");
        AtomicReference<Settings> told = new AtomicReference<>();
        form.save(told::set).get();

        Settings saved = store.load().settings();
        assertEquals(saved, told.get(), "the caller is told what was written");
        assertEquals("dark", saved.theme());
        assertEquals(5, saved.keepFinished());
        assertEquals(5000, saved.defaultGraceMillis());
        assertEquals(Settings.DEFAULTS.keepArtifactBytes(), saved.keepArtifactBytes(), "an unchanged field is not rewritten");
        assertEquals(List.of(), warnings);
        // Shown back as people write them, in a form the field reads again (not 5000 and 3221225472).
        assertEquals("5s", form.field("default_grace_ms").get());
        assertEquals(dev.runboard.session.Sizes.formatShort(Settings.DEFAULTS.keepArtifactBytes()),
                form.field("keep_artifact_bytes").get());
        assertTrue(form.field("keep_artifact_bytes").get().matches("\\d+[KMGT]"), form.field("keep_artifact_bytes").get());
        form.field("default_timeout_ms").set("1h30m");
        form.save(told::set).get();
        assertEquals("1h30m", form.field("default_timeout_ms").get());
        assertEquals(Long.valueOf(5_400_000L), store.load().settings().defaultTimeoutMillis());
    }

    @Test
    void aSettingsFileThatCannotBeWrittenIsSaidAndTheFieldsStay() throws Exception {
        SettingsStore store = new SettingsStore(dataDir.resolve("not-a-folder"));
        Files.writeString(dataDir.resolve("not-a-folder"), "a file where the data dir should be");
        PreferencesViewModel form = new PreferencesViewModel(store, new InlineUiTasks(), warnings::add);
        form.load().handle((settings, error) -> null).get();
        form.field("keep_finished").set("7");
        form.save(saved -> warnings.add("told of a save that failed")).handle((settings, error) -> null).get();
        assertEquals("7", form.field("keep_finished").get(), "what the person typed is kept");
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("could not save the settings: ")), warnings.toString());
    }
}
