package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Poll;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.control.TableCell;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * The Progress column's cell of a running command with earlier runs to go by: its bar and "N % · M s left"
 * at the smallest window (issue 47: the row's ETA read "1...").
 */
@ExtendWith(ApplicationExtension.class)
class ProgressCellTest {
    private static final long WAIT_S = 60;
    /** Long enough that the run shows its time left for a while on a loaded machine. */
    private static final String COMMAND = "sleep 12";

    static {
        // Opening a window with a history can outlast TestFX's 10 s set-up on a loaded machine.
        System.setProperty("testfx.setup.timeout", "60000");
    }

    @TempDir
    static Path dataDir;
    @TempDir
    static Path work;

    private WindowFixture fixture;

    /** The two earlier successful runs an estimate needs, side by side (off the FX thread, before the window opens). */
    @BeforeAll
    static void earlierRuns() throws Exception {
        try (SessionEngine earlier = SessionEngine.forDataDir(dataDir)) {
            List<CompletableFuture<Object>> ended = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                CompletableFuture<Object> end = new CompletableFuture<>();
                earlier.start(spec()).addListener(end::complete);
                ended.add(end);
            }
            CompletableFuture.allOf(ended.toArray(CompletableFuture[]::new)).get(WAIT_S, TimeUnit.SECONDS);
        }
    }

    @Start
    void start(Stage stage) {
        SessionEngine engine = SessionEngine.forDataDir(dataDir);
        engine.loadHistory();
        fixture = WindowFixture.open(stage, engine);
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void aRunningCommandsTimeLeftIsDrawnWholeAtTheSmallestWindow(FxRobot robot) throws Exception {
        MainWindow window = fixture.window();
        fixture.toSmallestSize(robot);
        SessionRow row = FxReads.await(robot, () -> window.model().launch(spec()));
        // The text changes every second and is drawn at the next layout: wait for a frame that draws the
        // time left. A cut cell never does (it draws "...").
        String[] seen = {"no Progress cell with a time left"};
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> {
                TableCell<?, ?> cell = progressCellOf(robot, row);
                if (cell == null || cell.getText() == null || !cell.getText().endsWith(" left")) {
                    return false;
                }
                String drawn = ClippedControls.drawnText(cell);
                seen[0] = "\"" + cell.getText() + "\" drawn as \"" + drawn + "\" in a " + cell.getTableColumn().getWidth()
                        + " px column; it needs " + Math.ceil(needs(cell)) + " px";
                return cell.getText().equals(drawn);
            }));
        } catch (TimeoutException e) {
            throw new AssertionError("the row's time left is cut at " + MainWindow.MIN_WIDTH + "x" + MainWindow.MIN_HEIGHT
                    + ": " + seen[0], e);
        }
    }

    /** The width the cell's bar, gap and whole text take, with its padding. */
    private static double needs(TableCell<?, ?> cell) {
        javafx.scene.text.Text text = new javafx.scene.text.Text(cell.getText());
        text.setFont(cell.getFont());
        double graphic = cell.getGraphic() == null ? 0 : cell.getGraphic().prefWidth(-1) + cell.getGraphicTextGap();
        return cell.snappedLeftInset() + graphic + text.getLayoutBounds().getWidth() + cell.snappedRightInset();
    }

    private static TableCell<?, ?> progressCellOf(FxRobot robot, SessionRow row) {
        return robot.lookup(".session-table .progress-cell").queryAll().stream()
                .map(n -> (TableCell<?, ?>) n)
                .filter(c -> c.isVisible() && c.getTableRow() != null && c.getTableRow().getItem() == row)
                .findFirst().orElse(null);
    }

    private static SessionSpec spec() {
        return SessionSpec.shell(COMMAND).shell(Path.of("/bin/sh")).cwd(work).build();
    }
}
