package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Poll;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableCell;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** A command's runs in the window: the Progress column, the History tab, "Compare with previous run", "Same command". */
@ExtendWith(ApplicationExtension.class)
class RunsWindowTest {
    private static final long WAIT_S = 30;
    private static final String LOG = "[INFO] Tests run: 12, Time elapsed: %s s\n[INFO] BUILD SUCCESS\n[INFO] Total time:  %s s\n";
    private static final String PACED = "d=$(cat pause); i=1; while [ $i -le 20 ]; do echo \"test $i ok\"; sleep $d; i=$((i+1)); done";

    static {
        // Opening a window with a history can outlast TestFX's 10 s set-up on a machine this loaded.
        System.setProperty("testfx.setup.timeout", "60000");
    }

    @TempDir
    static Path dataDir;
    @TempDir
    static Path work;

    private WindowFixture fixture;
    private SessionEngine engine;

    /** Earlier runs, made before the window opens (and off the FX thread): two logs, two quick paced runs. */
    @BeforeAll
    static void earlierRuns() throws Exception {
        try (SessionEngine earlier = SessionEngine.forDataDir(dataDir)) {
            Files.writeString(work.resolve("log.txt"), LOG.formatted("0.352", "4.211"));
            run(earlier, "cat log.txt");
            Files.writeString(work.resolve("log.txt"), LOG.formatted("1.07", "13.9"));
            run(earlier, "cat log.txt");
            Files.writeString(work.resolve("pause"), "0.01");
            run(earlier, PACED);
            run(earlier, PACED);
        }
    }

    @Start
    void start(Stage stage) {
        engine = SessionEngine.forDataDir(dataDir);
        engine.loadHistory();
        fixture = WindowFixture.open(stage, engine);
    }

    private static void run(SessionEngine engine, String command) throws Exception {
        CompletableFuture<Object> ended = new CompletableFuture<>();
        engine.start(SessionSpec.shell(command).shell(Path.of("/bin/sh")).cwd(work).build()).addListener(ended::complete);
        ended.get(WAIT_S, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void aSlowRunSaysLongerThanUsualAndTheHistoryTabComparesARunWithThePreviousOne(FxRobot robot) throws Exception {
        Files.writeString(work.resolve("pause"), "0.5"); // 10 s against the usual fraction of a second
        String slow = engine.start(SessionSpec.shell(PACED).shell(Path.of("/bin/sh")).cwd(work).build()).id();
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup(".progress-cell").queryAll().stream()
                .anyMatch(n -> "longer than usual".equals(((TableCell<?, ?>) n).getText()))));
        assertTrue(engine.find(slow).orElseThrow().snapshot().isRunning(), "still running when the row said so");

        MainWindow window = fixture.window();
        SessionRow second = fx(robot, () -> window.sessions().rows().stream()
                .filter(r -> r.commandProperty().get().equals("cat log.txt")).reduce((a, b) -> b).orElseThrow());
        robot.interact(() -> window.model().selectedProperty().set(second));
        robot.clickOn("History");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> robot.lookup("#historySummary").queryAs(Label.class).getText()).startsWith("2 runs"));
        assertTrue(fx(robot, () -> robot.lookup("#historySummary").queryAs(Label.class).getText()).contains("success rate 100 %"));

        robot.clickOn("#comparePrevious");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup("#diffResult").tryQueryAs(Label.class)
                .map(Label::getText).orElse("")).startsWith("Differs"));
        @SuppressWarnings("unchecked")
        ListView<String> lines = robot.lookup("#diffLines").queryAs(ListView.class);
        assertTrue(fx(robot, () -> lines.getItems().contains("-[INFO] Total time:  4.211 s")), fx(robot, () -> lines.getItems().toString()));
        assertEquals("-[INFO] Tests run: 12, Time elapsed: 0.352 s", fx(robot, () -> lines.getSelectionModel().getSelectedItem()),
                "opens at the first difference");
        // Single-spaced, as diff(1) in a terminal: a line's row is not much taller than its text.
        double[] rowAndFont = fx(robot, () -> lines.lookupAll(".list-cell").stream().map(n -> (javafx.scene.control.ListCell<?>) n)
                .filter(c -> !c.isEmpty()).findFirst().map(c -> new double[] {c.getHeight(), c.getFont().getSize()}).orElseThrow());
        assertTrue(rowAndFont[0] <= 1.7 * rowAndFont[1], "a diff line's row is " + rowAndFont[0] + " px high for a "
                + rowAndFont[1] + " px font");
        robot.clickOn("#ignoreVolatile");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup("#diffResult").queryAs(Label.class)
                .getText()).startsWith("Same output"));

        // Esc closes Compare, and Ctrl+W too.
        for (KeyCode[] keys : List.of(new KeyCode[] {KeyCode.ESCAPE}, new KeyCode[] {KeyCode.CONTROL, KeyCode.W})) {
            if (compareWindow(robot) == null) {
                FxReads.clickOn(robot, "#comparePrevious");
                Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> compareWindow(robot) != null);
            }
            javafx.stage.Window compare = compareWindow(robot);
            robot.interact(compare::requestFocus);
            robot.press(keys).release(keys);
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> compareWindow(robot) == null);
        }
        robot.clickOn("#sameCommandToggle");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().visibleRows().size()) == 2);
        assertTrue(fx(robot, () -> window.sessions().visibleRows().stream().allMatch(r -> r.commandProperty().get().equals("cat log.txt"))));
        robot.clickOn("#sameCommandToggle");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().visibleRows().size()) == 5);
    }

    /** The showing Compare window, or null. */
    private static javafx.stage.Window compareWindow(FxRobot robot) {
        return fx(robot, () -> javafx.stage.Window.getWindows().stream().filter(w -> w.isShowing() && w.getScene() != null
                && w.getScene().lookup("#diffLines") != null).findFirst().orElse(null));
    }
}
