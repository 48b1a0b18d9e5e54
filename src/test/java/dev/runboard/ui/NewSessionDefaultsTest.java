package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorFixture;
import dev.runboard.testing.Poll;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.CheckBox;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The New session dialog starts from the settings' default_nice and default_timeout_ms, as they are when it opens. */
@ExtendWith(ApplicationExtension.class)
class NewSessionDefaultsTest {
    private static final long WAIT_S = 30;
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
    void theDialogShowsTheConfiguredTimeoutAndPriority(FxRobot robot) throws Exception {
        config("default_timeout_ms", "60000");
        config("default_nice", "5");
        config("default_max_output", "50M");
        openDialog(robot);
        assertEquals("1m", fx(robot, () -> robot.lookup("#timeoutField").queryAs(TextField.class).getText()));
        assertEquals("50 MiB (default)", fx(robot, () -> robot.lookup("#maxOutputField").queryAs(TextField.class).getPromptText()),
                "an empty Keep output field keeps what the settings say");
        CheckBox background = robot.lookup("#backgroundCheck").queryAs(CheckBox.class);
        assertTrue(fx(robot, background::isSelected));
        assertEquals("Background (nice 5)", fx(robot, background::getText));
        robot.clickOn("#cancelButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#timeoutField").tryQuery().isEmpty());

        // Changed while the window is open: the next form follows.
        config("default_timeout_ms", "none");
        config("default_nice", "0");
        openDialog(robot);
        assertEquals("", fx(robot, () -> robot.lookup("#timeoutField").queryAs(TextField.class).getText()));
        assertFalse(fx(robot, () -> robot.lookup("#backgroundCheck").queryAs(CheckBox.class).isSelected()));
        robot.clickOn("#cancelButton");
    }

    private void config(String key, String value) {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "config", "set", key, value);
        assertEquals(0, r.exit(), r.err());
    }

    private static void openDialog(FxRobot robot) throws Exception {
        robot.clickOn("#newButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#timeoutField").tryQuery().isPresent());
    }
}
