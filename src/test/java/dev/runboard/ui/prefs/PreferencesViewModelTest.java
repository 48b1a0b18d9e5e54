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
        AtomicReference<Settings> told = new AtomicReference<>();
        form.save(told::set).get();

        Settings saved = store.load().settings();
        assertEquals(saved, told.get(), "the caller is told what was written");
        assertEquals("dark", saved.theme());
        assertEquals(5, saved.keepFinished());
        assertEquals(5000, saved.defaultGraceMillis());
        assertEquals(Settings.DEFAULTS.keepArtifactBytes(), saved.keepArtifactBytes(), "an unchanged field is not rewritten");
        assertEquals(List.of(), warnings);
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
