package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Poll;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Rectangle2D;
import javafx.scene.control.SplitPane;
import javafx.scene.input.KeyCode;
import javafx.stage.Screen;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Quitting with sessions running, rerunning a running command, and the remembered window. */
@ExtendWith(ApplicationExtension.class)
class DesktopMannersTest {
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
    void ctrlQWithARunningSessionSaysItKeepsRunningUntilToldNotToAsk(FxRobot robot) throws Exception {
        launch(robot, "sleep 60");
        robot.press(KeyCode.CONTROL, KeyCode.Q).release(KeyCode.Q, KeyCode.CONTROL);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#closeAnywayButton").tryQuery().isPresent());
        robot.clickOn("Cancel");
        assertTrue(fx(robot, () -> window.stage().isShowing()), "Cancel keeps the window");

        robot.press(KeyCode.CONTROL, KeyCode.Q).release(KeyCode.Q, KeyCode.CONTROL);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#dontAskAgain").tryQuery().isPresent());
        robot.clickOn("#dontAskAgain");
        robot.clickOn("#closeAnywayButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> !fx(robot, () -> window.stage().isShowing()));
        assertEquals(1, (int) fx(robot, () -> window.sessions().runningCountProperty().get()), "the session still runs");
        assertFalse(WindowState.load(dataDir).askBeforeQuit(), "remembered: don't ask again");
    }

    @Test
    void rerunOfARunningCommandAsksAndRestartKillsTheRunningCopyFirst(FxRobot robot) throws Exception {
        launch(robot, "sleep 60");
        robot.clickOn("#toolbarRerun");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#rerunBesideButton").tryQuery().isPresent());
        robot.clickOn("#rerunBesideButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().runningCountProperty().get()) == 2);

        robot.clickOn("#toolbarRerun");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#rerunRestartButton").tryQuery().isPresent());
        robot.clickOn("#rerunRestartButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().rows().size()) == 3
                && fx(robot, () -> window.sessions().runningCountProperty().get()) == 1);
    }

    @Test
    void theWindowComesBackWithItsSizeAndSplits(FxRobot robot) throws Exception {
        robot.interact(() -> {
            window.stage().setWidth(1100);
            window.stage().setHeight(720);
            window.controller().mainSplit().setDividerPositions(0.6);
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> window.memory().saveAndWait());
        WindowState saved = WindowState.load(dataDir);
        assertEquals(1100, saved.width(), 0.5);
        assertEquals(0.6, saved.splits().get("main"), 0.02);

        robot.interact(() -> {
            window.stage().setWidth(1300);
            SplitPane main = window.controller().mainSplit();
            main.setDividerPositions(0.3);
            new WindowMemory(window.stage(), dataDir, new FxUiTasks(), Map.of("main", main), window.controller().table()).restore();
        });
        assertEquals(1100, fx(robot, () -> window.stage().getWidth()), 0.5);
        assertEquals(0.6, fx(robot, () -> window.controller().mainSplit().getDividerPositions()[0]), 0.02);
    }

    @Test
    void aWindowLeftOnABiggerMonitorOpensInsideThisScreen(FxRobot robot) throws Exception {
        Rectangle2D screen = fx(robot, () -> Screen.getPrimary().getVisualBounds());
        // Left 3,000 x 2,000 at (200, 100), as on a 4K monitor: it overlaps this screen, so it is restored here.
        new WindowState(screen.getMinX() + 200, screen.getMinY() + 100, screen.getWidth() + 1700, screen.getHeight() + 1200,
                false, Map.of(), Map.of(), java.util.List.of(), true).save(dataDir);

        robot.interact(() -> new WindowMemory(window.stage(), dataDir, new FxUiTasks(),
                Map.of("main", window.controller().mainSplit()), window.controller().table()).restore());

        Rectangle2D shown = fx(robot, () -> new Rectangle2D(window.stage().getX(), window.stage().getY(),
                window.stage().getWidth(), window.stage().getHeight()));
        assertTrue(shown.getMinX() >= screen.getMinX() && shown.getMaxX() <= screen.getMaxX() + 0.5
                && shown.getMinY() >= screen.getMinY() && shown.getMaxY() <= screen.getMaxY() + 0.5,
                "the window " + shown + " lies within the screen " + screen);
        assertEquals(screen.getWidth(), shown.getWidth(), 0.5, "as wide as the screen allows");
    }

    /** A session started from the window, once it runs (its first record may say "pending, starting"). */
    private SessionRow launch(FxRobot robot, String command) throws Exception {
        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell(command).cwd(workDir).build()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::isRunning));
        return row;
    }
}
