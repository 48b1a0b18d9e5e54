package dev.runboard.ui.prefs;

import dev.runboard.testing.Poll;
import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.store.Settings;
import dev.runboard.store.SettingsStore;
import dev.runboard.ui.WindowFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** Edit → Preferences… on the real window: it shows the saved settings, refuses what config set refuses, and saves. */
@ExtendWith(ApplicationExtension.class)
class PreferencesWindowTest {
    private static final long WAIT_S = 20;

    @TempDir
    Path dataDir;

    private WindowFixture fixture;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir);
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void showsTheDefaultsNamesAnInvalidValueAndSavesTheChanges(FxRobot robot) throws Exception {
        robot.clickOn("Edit").clickOn("#preferencesMenuItem");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> "1000".equals(field(robot, "keep_finished").getText())));
        assertTrue(Files.exists(dataDir.resolve(SettingsStore.FILE)), "the first look writes settings.json with its defaults");
        assertEquals("light", fx(robot, () -> robot.lookup("#pref-theme").queryAs(ChoiceBox.class).getValue()));
        assertEquals("2s", fx(robot, () -> field(robot, "default_grace_ms").getText()), "a duration as people write it");

        // Two invalid values at once: each field says its own problem under it, and nothing can be saved.
        WindowFixture.retype(robot, "#pref-keep_finished", "lots");
        WindowFixture.retype(robot, "#pref-default_grace_ms", "soon");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> problem(robot, "keep_finished").isVisible()
                && problem(robot, "default_grace_ms").isVisible()));
        assertEquals("'lots' is not allowed: write a whole number of at least 1",
                fx(robot, () -> problem(robot, "keep_finished").getText()));
        assertFalse(fx(robot, () -> problem(robot, "theme").isVisible()), "a valid field says nothing");
        assertTrue(fx(robot, () -> save(robot).isDisabled()), "nothing invalid can be saved");

        // The theme is a choice of its two values, not free text.
        robot.clickOn("#pref-theme").clickOn("dark");
        WindowFixture.retype(robot, "#pref-keep_finished", "5");
        WindowFixture.retype(robot, "#pref-default_grace_ms", "5s");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !save(robot).isDisabled()));
        WindowFixture.pressAfterChange(robot, () -> save(robot)); // the errors just cleared: the form is shrinking
        SettingsStore store = new SettingsStore(dataDir);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> store.load().settings().keepFinished() == 5);
        Settings saved = store.load().settings();
        assertEquals("dark", saved.theme());
        assertEquals(5000, saved.defaultGraceMillis());
        assertEquals(Settings.DEFAULTS.keepArtifactBytes(), saved.keepArtifactBytes(), "an unchanged field is not rewritten");
    }

    private static Label problem(FxRobot robot, String key) {
        return robot.lookup("#prefProblem-" + key).queryAs(Label.class);
    }

    private static TextField field(FxRobot robot, String key) {
        return robot.lookup("#pref-" + key).queryAs(TextField.class);
    }

    private static Button save(FxRobot robot) {
        DialogPane pane = robot.lookup(".dialog-pane").queryAs(DialogPane.class);
        return (Button) pane.lookupButton(PreferencesDialog.SAVE);
    }
}
