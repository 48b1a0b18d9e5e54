package dev.runboard.ui.viewer;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.artifact.ViewerLine;
import dev.runboard.testing.Poll;
import dev.runboard.ui.ClippedControls;
import dev.runboard.ui.RecordingDesktop;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.common.Theme;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.text.Text;
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
 * The viewer's line numbers past a million lines (issue 47: seven-digit numbers touched the viewer's
 * left edge): at the end of a real file of 1,234,567 lines the last number is drawn whole, with room
 * on its left inside its row.
 */
@ExtendWith(ApplicationExtension.class)
class SevenDigitLineNumbersTest {
    private static final long WAIT_S = 60;
    private static final int LINES = 1_234_567;
    /** Less than this between a row's left edge and its number's first digit reads as touching. */
    private static final double LEFT_ROOM = 4;

    @TempDir
    Path dir;
    private Stage viewer;

    @Start
    void start(Stage stage) {
        javafx.application.Platform.setImplicitExit(false);
    }

    @AfterEach
    void close() throws Exception {
        if (viewer != null) {
            WaitForAsyncUtils.waitForAsyncFx(5_000, () -> viewer.hide());
        }
    }

    @Test
    void theLastOfMoreThanAMillionLinesShowsItsWholeNumberClearOfTheEdge(FxRobot robot) throws Exception {
        Path log = dir.resolve("long.log");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(log), 1 << 20)) {
            byte[] line = "ok\n".getBytes(StandardCharsets.US_ASCII); // 3.7 MB in all
            for (int i = 1; i <= LINES; i++) {
                out.write(line);
            }
        }
        viewer = fx(robot, () -> new ArtifactViewer(new Theme(false), new RecordingDesktop(), new FxUiTasks()).open(null, log));
        @SuppressWarnings("unchecked")
        ListView<ViewerLine> list = (ListView<ViewerLine>) robot.lookup("#viewerList").query();
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !list.getItems().isEmpty()));

        robot.clickOn("#viewerEnd");
        String last = String.valueOf(LINES);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> numberOfLastLine(list) != null
                && last.equals(numberOfLastLine(list).getText())));
        WaitForAsyncUtils.waitForFxEvents();

        Label number = fx(robot, () -> numberOfLastLine(list));
        assertEquals(last, fx(robot, () -> ClippedControls.drawnText(number)), "the number as drawn");
        double[] leftAndRight = fx(robot, () -> {
            ListCell<?> cell = cellOf(number);
            Bounds row = cell.localToScene(cell.getLayoutBounds());
            Text digits = ClippedControls.textNode(number);
            Bounds drawn = digits.localToScene(digits.getLayoutBounds());
            return new double[] {drawn.getMinX() - row.getMinX(), row.getMaxX() - drawn.getMaxX()};
        });
        assertTrue(leftAndRight[0] >= LEFT_ROOM, "the first digit is " + leftAndRight[0] + " px from the row's left edge");
        assertTrue(leftAndRight[1] >= 0, "the last digit lies inside its row: " + leftAndRight[1] + " px from its right edge");
    }

    /** The line-number label of the cell that shows the file's last line, or null while none does. */
    private static Label numberOfLastLine(ListView<ViewerLine> list) {
        return list.lookupAll(".viewer-line").stream()
                .map(n -> (ListCell<?>) n)
                .filter(c -> !c.isEmpty() && c.getItem() instanceof ViewerLine l && l.number() == LINES - 1)
                .flatMap(c -> c.lookupAll(".line-number").stream())
                .filter(n -> n instanceof Label && n.isVisible() && !n.getStyleClass().contains("line-time"))
                .map(n -> (Label) n)
                .findFirst().orElse(null);
    }

    private static ListCell<?> cellOf(Label number) {
        javafx.scene.Node n = number;
        while (!(n instanceof ListCell<?>)) {
            n = n.getParent();
        }
        return (ListCell<?>) n;
    }
}
