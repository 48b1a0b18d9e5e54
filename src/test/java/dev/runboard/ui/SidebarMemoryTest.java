package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.testing.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.SplitPane;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The workspace sidebar's edge, dragged and the window closed, is where it was when the window opens again. */
@ExtendWith(ApplicationExtension.class)
class SidebarMemoryTest {
    private static final long WAIT_S = 30;
    @TempDir
    Path dataDir;
    @TempDir
    Path workDir;
    private WindowFixture fixture;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir);
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close(); // after a reopen, the reopened window's (the first closed as it reopened)
    }

    @Test
    void theSidebarSplitIsRememberedAcrossRestarts(FxRobot robot) throws Exception {
        Files.writeString(workDir.resolve("runboard.yaml"), "commands:\n  web:\n    command: sleep 60\n");
        MainWindow window = fixture.window();
        // Room to drag into: at 1024 px wide the sessions' side is at its minimum and the edge cannot move right, which
        // is what the drag that "moved nothing" was (the window had opened at the size an earlier test in the JVM gave
        // TestFX's shared stage; WindowFixture now gives each test a new window's size).
        robot.interact(() -> {
            window.stage().setWidth(1280);
            window.stage().setHeight(800);
        });
        FxReads.await(robot, () -> window.workspaces().open(workDir));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> sidebarShown(robot, window));
        // The sidebar lays itself out over a few pulses once shown: the drag starts where its edge has come to rest
        // (in a loaded run the press landed where the edge had been, and the drag moved nothing).
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> {
            javafx.geometry.Bounds then = fx(robot, () -> divider(robot, window).localToScreen(divider(robot, window).getBoundsInLocal()));
            WaitForAsyncUtils.waitForFxEvents();
            return then != null && then.equals(fx(robot, () -> divider(robot, window).localToScreen(divider(robot, window).getBoundsInLocal())));
        });
        double before = position(robot, window);
        javafx.geometry.Bounds edge = fx(robot, () -> divider(robot, window).localToScreen(divider(robot, window).getBoundsInLocal()));

        // Twice in loaded series (the third run of each) the drag moved nothing, the edge at rest; the cause is not
        // found. A button held over from an earlier test in this JVM would do that, so none is; and a failure now
        // says where the edge and the window were.
        robot.release(new MouseButton[0]);
        robot.drag(divider(robot, window), MouseButton.PRIMARY).moveBy(150, 0).drop();
        WaitForAsyncUtils.waitForFxEvents();
        double moved = position(robot, window);
        assertTrue(moved > before + 0.02, "the drag moved the edge: " + before + " -> " + moved + " (the edge at " + edge
                + ", the window at " + fx(robot, () -> window.stage().getX() + "," + window.stage().getY() + " "
                + window.stage().getWidth() + "x" + window.stage().getHeight() + ", focused " + window.stage().isFocused()) + ")");

        // Closed as a person closes it (the close button), then opened again on the same data dir.
        fixture.closeByItsButton(robot);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> WindowState.load(dataDir).splits().containsKey("sidebar"));
        assertEquals(moved, WindowState.load(dataDir).splits().get("sidebar"), 0.01);

        fixture = fixture.reopen(robot, dataDir);
        MainWindow again = fixture.window();
        FxReads.await(robot, () -> again.workspaces().open(workDir));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> sidebarShown(robot, again));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(moved, position(robot, again), 0.01, "the sidebar's edge is where it was left");
    }

    private static boolean sidebarShown(FxRobot robot, MainWindow window) {
        return fx(robot, () -> split(window).getItems().size() == 2 && split(window).getItems().get(0).isVisible());
    }

    private static double position(FxRobot robot, MainWindow window) {
        return fx(robot, () -> split(window).getDividerPositions()[0]);
    }

    private static SplitPane split(MainWindow window) {
        return (SplitPane) window.stage().getScene().lookup("#sideSplit");
    }

    /** The sidebar split's own divider (the sessions/detail split inside it has one too). */
    private static Node divider(FxRobot robot, MainWindow window) {
        return fx(robot, () -> split(window).getChildrenUnmodifiable().stream()
                .filter(n -> n.getStyleClass().contains("split-pane-divider")).findFirst().orElseThrow());
    }
}
