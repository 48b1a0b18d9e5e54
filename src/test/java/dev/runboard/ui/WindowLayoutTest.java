package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Poll;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * The main window at the smallest size it allows and at a laptop's size, with a workspace open and
 * a running session selected (every header control enabled, the longest words showing): no button,
 * header or column title is cut short or pushed out of the window.
 */
@ExtendWith(ApplicationExtension.class)
class WindowLayoutTest {
    private static final long WAIT_S = 20;

    @TempDir
    Path dataDir;
    @TempDir
    Path project;

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
    void nothingIsCutShortAtTheMinimumSizeWithTheSidebarOpen(FxRobot robot) throws Exception {
        assertNothingClippedAt(robot, 1024, 700);
    }

    @Test
    void nothingIsCutShortAtALaptopSizeWithTheSidebarOpen(FxRobot robot) throws Exception {
        assertNothingClippedAt(robot, 1280, 800);
    }

    /**
     * On a wide window (here the 1280 px of the test's screen) the room goes where the text is long: the Command and Last line columns, not
     * Working dir or the fixed-width ones; and the Progress column, with no running command that has
     * earlier runs to go by, steps aside (at 1920 px the Command column had stayed 110-145 px wide while
     * Working dir and an empty Progress column took more).
     */
    @Test
    void aWideWindowGivesItsRoomToCommandAndLastLineAndShowsNoEmptyProgressColumn(FxRobot robot) throws Exception {
        FxReads.await(robot, () -> window.model().launch(SessionSpec.shell("sleep 60 # " + "a long command line ".repeat(8))
                .cwd(project).build()));
        robot.interact(() -> {
            window.stage().setWidth(1280); // Monocle's screen: a stage wider than it breaks its frame buffer
            window.stage().setHeight(800);
        });
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TableView<?> table = robot.lookup("#sessionTable").queryAs(javafx.scene.control.TableView.class);
        java.util.Map<String, Double> widths = fx(robot, () -> table.getVisibleLeafColumns().stream()
                .collect(java.util.stream.Collectors.toMap(c -> c.getText(), c -> c.getWidth())));
        double tableWidth = fx(robot, table::getWidth);
        List<String> widest = widths.entrySet().stream().sorted(java.util.Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(2).map(java.util.Map.Entry::getKey).sorted().toList();
        assertEquals(List.of("Command", "Last line"), widest, "the two widest columns, in a " + tableWidth + " px table: " + widths);
        org.junit.jupiter.api.Assertions.assertFalse(widths.containsKey("Progress"), "nothing to show, no column: " + widths);
    }

    /**
     * Issue 47: status-bar warnings were cut. The bar keeps one line, so a warning longer than its room
     * ends in "..." there (the label is styled {@code elides}, which the cut checks leave out); hovering
     * it shows the whole warning in a tooltip that lies within the screen.
     */
    @Test
    void aLongWarningCutInTheStatusBarReadsWholeInItsTooltip(FxRobot robot) throws Exception {
        fixture.toSmallestSize(robot);
        String problem = "could not read the history: " + project.resolve("sessions/20261207-021500-4f2a9c/record.json")
                + ": Unexpected end-of-input within/between Object entries at line 14, column 3; the other sessions were read";
        robot.interact(() -> window.model().warn(problem));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.Label message = robot.lookup("#messageLabel").queryAs(javafx.scene.control.Label.class);
        String whole = fx(robot, message::getText);
        org.junit.jupiter.api.Assertions.assertTrue(whole.endsWith(" " + problem), whole);
        String inTheBar = fx(robot, () -> ClippedControls.drawnText(message));

        robot.moveTo(fx(robot, () -> robot.point(message).query())); // its bounds read on the FX thread (see FxReads.clickOn)
        javafx.scene.control.Tooltip tip = fx(robot, message::getTooltip);
        org.junit.jupiter.api.Assertions.assertNotNull(tip, "the status message has a tooltip (the bar shows \"" + inTheBar + "\")");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, tip::isShowing));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(whole, fx(robot, tip::getText), "the tooltip's text");
        javafx.scene.control.Labeled drawn = fx(robot, () -> (javafx.scene.control.Labeled) tip.getSkin().getNode());
        assertEquals(whole, fx(robot, () -> ClippedControls.drawnText(drawn)), "the tooltip as drawn");
        javafx.geometry.Rectangle2D screen = fx(robot, () -> javafx.stage.Screen.getPrimary().getBounds());
        // The label's own bounds: the tooltip's window also holds its shadow's transparent margin.
        double[] tipBounds = fx(robot, () -> {
            javafx.geometry.Bounds b = drawn.localToScreen(drawn.getLayoutBounds());
            return new double[] {b.getMinX(), b.getMaxX()};
        });
        org.junit.jupiter.api.Assertions.assertTrue(tipBounds[0] >= screen.getMinX() - 0.5 && tipBounds[1] <= screen.getMaxX() + 0.5,
                "the tooltip spans x " + tipBounds[0] + ".." + tipBounds[1] + " of a screen " + screen.getWidth() + " px wide");
    }

    private void assertNothingClippedAt(FxRobot robot, int width, int height) throws Exception {
        Files.writeString(project.resolve("runboard.yaml"), """
                name: shop
                commands:
                  web:
                    command: ./serve --port 8080
                  lint:
                    command: nonexistent-linter --fix
                    colour: red
                """);
        FxReads.await(robot, () -> window.workspaces().open(project));
        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell(
                "sleep 60 # a long command line that needs more room than the header has at this size").cwd(project).build()));
        FxReads.await(robot, () -> window.model().launch(SessionSpec.shell("kill -TERM $$").cwd(project).build()));
        robot.interact(() -> {
            window.stage().setWidth(width);
            window.stage().setHeight(height);
            window.model().selectedProperty().set(row);
        });
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().rows().stream()
                .filter(r -> r != row).anyMatch(r -> !r.isRunning())));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(width, (int) Math.round(fx(robot, () -> window.stage().getScene().getWidth())), "the scene took the size");
        List<String> clipped = fx(robot, () -> ClippedControls.in(window.stage().getScene()));
        assertEquals(List.of(), clipped, "cut short at " + width + "x" + height);
    }
}
