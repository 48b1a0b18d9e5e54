package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.testing.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.SplitPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The detail pane and the workspace sidebar are not part of the window's first frame: the pane
 * comes in after it with nothing selected, the sidebar only when a workspace opens, and the pane's
 * own split is still put where it was left.
 */
@ExtendWith(ApplicationExtension.class)
class LateViewsTest {
    private static final long WAIT_S = 30;
    @TempDir
    Path dataDir;
    @TempDir
    Path workDir;
    private WindowFixture fixture;
    private boolean detailLoadedAtOpen;
    private boolean sidebarLoadedAtOpen;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir);
        // In the runnable that opened the window, before its first pulse.
        detailLoadedAtOpen = fixture.window().controller().detail().isLoaded();
        sidebarLoadedAtOpen = fixture.window().controller().workspaceSidebar().isLoaded();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close(); // after a reopen, the reopened window's (the first closed as it reopened)
    }

    @Test
    void theDetailPaneComesAfterTheFirstFrameAndTheSidebarWithAWorkspace(FxRobot robot) throws Exception {
        MainWindow window = fixture.window();
        assertFalse(detailLoadedAtOpen, "the detail pane is not built for the first frame");
        assertFalse(sidebarLoadedAtOpen, "the sidebar is not built for the first frame");

        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> detailInWindow(robot, window));
        assertTrue(fx(robot, () -> window.controller().sideTabs().getTabs().stream().anyMatch(t -> t.getText().equals("History"))),
                "the History tab is in the pane");
        assertFalse(fx(robot, () -> window.controller().workspaceSidebar().isLoaded()), "no workspace open, no sidebar built");
        assertNotNull(fx(robot, () -> window.stage().getScene().lookup("#workspaceMenu")), "the Workspace menu is there all along");

        Files.writeString(workDir.resolve("runboard.yaml"), "commands:\n  web:\n    command: sleep 60\n");
        FxReads.await(robot, () -> window.workspaces().open(workDir));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> {
            SplitPane side = (SplitPane) window.stage().getScene().lookup("#sideSplit");
            return side.getItems().size() == 2 && side.getItems().get(0) == window.controller().workspaceSidebar().root()
                    && side.getItems().get(0).isVisible();
        }));
    }

    @Test
    void theDetailPanesSplitIsRememberedThoughItComesLate(FxRobot robot) throws Exception {
        MainWindow window = fixture.window();
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> detailInWindow(robot, window));
        // Laid out first: the split's first layout places its divider by its items' sizes.
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> detailSplit(window).getWidth() > 0));
        WaitForAsyncUtils.waitForFxEvents();
        double before = fx(robot, () -> detailSplit(window).getDividerPositions()[0]);
        robot.interact(() -> detailSplit(window).setDividerPositions(before > 0.5 ? before - 0.2 : before + 0.2));
        WaitForAsyncUtils.waitForFxEvents();
        double moved = fx(robot, () -> detailSplit(window).getDividerPositions()[0]);
        assertTrue(Math.abs(moved - before) > 0.1, "the divider moved: " + before + " -> " + moved);

        fixture.closeByItsButton(robot);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> WindowState.load(dataDir).splits().containsKey("detail"));
        assertEquals(moved, WindowState.load(dataDir).splits().get("detail"), 0.01);

        fixture = fixture.reopen(robot, dataDir);
        MainWindow again = fixture.window();
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> detailInWindow(robot, again));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(moved, fx(robot, () -> detailSplit(again).getDividerPositions()[0]), 0.01,
                "the output/facts split is where it was left");
    }

    private static boolean detailInWindow(FxRobot robot, MainWindow window) {
        return fx(robot, () -> window.controller().detail().isLoaded()
                && window.controller().detail().root().getScene() == window.stage().getScene());
    }

    private static SplitPane detailSplit(MainWindow window) {
        SplitPane split = window.controller().detail().controller().split();
        assertSame(window.stage().getScene(), split.getScene());
        return split;
    }
}
