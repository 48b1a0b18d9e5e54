package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The window from the keyboard alone: focus the table, cycle panes, open and close the viewer, and F1's list. */
@ExtendWith(ApplicationExtension.class)
class KeyboardTest {
    private static final long WAIT_S = 30;

    @TempDir
    Path dataDir;
    @TempDir
    Path workDir;

    private WindowFixture fixture;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir);
        window = fixture.window();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void ctrl1FocusesTheTableF6MovesOnAndTheViewerOpensAndClosesByKey(FxRobot robot) throws Exception {
        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell("echo from the keyboard").cwd(workDir).build()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.COMPLETED);

        robot.press(KeyCode.CONTROL, KeyCode.L).release(KeyCode.L, KeyCode.CONTROL);
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT1).release(KeyCode.DIGIT1, KeyCode.CONTROL);
        assertTrue(fx(robot, () -> focusOwner().getStyleClass().contains("session-table")), "Ctrl+1 focused the table");
        robot.type(KeyCode.F6);
        assertEquals("outputList", fx(robot, () -> focusOwner().getId()), "F6 moved on to the output");
        // F6 again: the side tabs, whose selected tab shows the focus (it once looked the same focused or not).
        javafx.scene.layout.Region tab = fx(robot, () -> (javafx.scene.layout.Region) window.controller().sideTabs().lookup(".tab:selected"));
        javafx.scene.layout.Border unfocused = fx(robot, tab::getBorder);
        robot.type(KeyCode.F6);
        assertTrue(fx(robot, () -> focusOwner() instanceof javafx.scene.control.TabPane), "F6 moved on to the side tabs");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> tab.getBorder() != null
                && !tab.getBorder().equals(unfocused)));
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT1).release(KeyCode.DIGIT1, KeyCode.CONTROL);

        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.O).release(KeyCode.O, KeyCode.SHIFT, KeyCode.CONTROL);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> viewers(robot).size() == 1);
        Stage viewer = viewers(robot).get(0);
        robot.interact(viewer::requestFocus);
        robot.type(KeyCode.ESCAPE);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> viewers(robot).isEmpty());
    }

    @Test
    void f1ListsEveryShortcutWrappedWithinTheDialog(FxRobot robot) throws Exception {
        robot.type(KeyCode.F1);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> !robot.lookup(".shortcut-key").queryAll().isEmpty());
        List<String> keys = fx(robot, () -> robot.lookup(".shortcut-key").queryAllAs(Label.class).stream().map(Label::getText).toList());
        // Every accelerator the menus register (Search all runs and Preferences were missing), and the keys without a menu item.
        for (String k : List.of("Ctrl+N", "Ctrl+R", "Ctrl+Shift+R", "Ctrl+K", "Ctrl+Q", "Ctrl+F", "Ctrl+L", "Ctrl+Shift+F", "Ctrl+1",
                "F6", "Shift+F6", "Ctrl+Shift+O", "Ctrl+,", "Ctrl+O", "F1", "Delete", "Esc / Ctrl+W", "Ctrl+A / Shift+click / Ctrl+click")) {
            assertTrue(keys.contains(k), k + " is listed: " + keys);
        }
        List<String> what = fx(robot, () -> robot.lookup(".shortcut-grid").queryAs(javafx.scene.layout.GridPane.class).getChildren()
                .stream().filter(n -> !n.getStyleClass().contains("shortcut-key")).map(n -> ((Label) n).getText()).toList());
        assertTrue(what.contains("Preferences"), "what Ctrl+, does: " + what);
        assertTrue(what.contains("Search the output of every run in the list"), "what Ctrl+Shift+F does: " + what);
        Window help = fx(robot, () -> robot.lookup(".shortcut-key").query().getScene().getWindow());
        List<String> clipped = fx(robot, () -> ClippedControls.in(help.getScene()));
        assertEquals(List.of(), clipped, "nothing in F1's list is cut off");
        robot.type(KeyCode.ESCAPE);
    }

    private Node focusOwner() {
        return window.stage().getScene().getFocusOwner();
    }

    private List<Stage> viewers(FxRobot robot) {
        return fx(robot, () -> Window.getWindows().stream().filter(w -> w instanceof Stage s && s != window.stage()
                && s.getTitle() != null && s.getTitle().endsWith("\u2014 runboard") && s.isShowing()).map(w -> (Stage) w).toList());
    }
}
