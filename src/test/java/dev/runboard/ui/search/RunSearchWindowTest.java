package dev.runboard.ui.search;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.artifact.ViewerLine;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Poll;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.WindowFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** "Search all runs" in the window: results grouped by run; a result opens the viewer at its line. */
@ExtendWith(ApplicationExtension.class)
class RunSearchWindowTest {
    private static final long WAIT_S = 30;
    @TempDir
    static Path dataDir;
    private WindowFixture fixture;
    private MainWindow window;

    /** Four past runs of 3,000 lines; the third printed "connection reset" once, at line 1,501. */
    @BeforeAll
    static void fourRuns() throws Exception {
        try (SessionEngine earlier = SessionEngine.forDataDir(dataDir)) {
            for (int run = 1; run <= 4; run++) {
                String cmd = "seq 1 1500; " + (run == 3 ? "echo 'read: connection reset by peer'; " : "echo fine; ") + "seq 1502 3000";
                CompletableFuture<Object> ended = new CompletableFuture<>();
                earlier.start(SessionSpec.shell(cmd).cwd(dataDir).previewBytes(4096).build()).addListener(ended::complete);
                ended.get(WAIT_S, TimeUnit.SECONDS);
            }
        }
    }

    @Start
    void start(Stage stage) {
        SessionEngine engine = SessionEngine.forDataDir(dataDir);
        engine.loadHistory();
        fixture = WindowFixture.open(stage, engine);
        window = fixture.window();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void findsThePlantedLineAndOpensTheViewerAtIt(FxRobot robot) throws Exception {
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().rows().size()) == 4);
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.F).release(KeyCode.F, KeyCode.SHIFT, KeyCode.CONTROL);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup("#runSearchQuery").tryQuery().isPresent()));
        robot.interact(() -> robot.lookup("#runSearchQuery").queryAs(TextField.class).setText("connection \\w+"));
        robot.clickOn("#runSearchGo");
        @SuppressWarnings("unchecked")
        TreeView<RunSearchWindow.Result> tree = (TreeView<RunSearchWindow.Result>) robot.lookup("#runSearchResults").query();
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> robot.lookup("#runSearchStatus").queryLabeled().getText()).contains("1 of 4 runs"));
        List<TreeItem<RunSearchWindow.Result>> runs = fx(robot, () -> List.copyOf(tree.getRoot().getChildren()));
        assertEquals(1, runs.size(), "one run printed it");
        String thirdRun = fx(robot, () -> window.sessions().rows().get(2).id());
        assertEquals(thirdRun, runs.get(0).getValue().run().id());
        assertEquals("1501: read: connection reset by peer", fx(robot, () -> runs.get(0).getChildren().get(0).getValue().toString()));

        // Only the runs of another command: none printed it.
        robot.interact(() -> robot.lookup("#runSearchCommand").queryAs(TextField.class).setText("echo fine"));
        robot.clickOn("#runSearchGo");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> robot.lookup("#runSearchStatus").queryLabeled().getText()).startsWith("No run printed"));
        robot.interact(() -> robot.lookup("#runSearchCommand").queryAs(TextField.class).setText(""));
        robot.clickOn("#runSearchGo");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> robot.lookup("#runSearchStatus").queryLabeled().getText()).contains("1 of 4 runs"));
        List<TreeItem<RunSearchWindow.Result>> again = fx(robot, () -> List.copyOf(tree.getRoot().getChildren()));

        // Activating the line opens the viewer on that run's output, the line selected.
        robot.interact(() -> tree.getSelectionModel().select(again.get(0).getChildren().get(0)));
        robot.interact(() -> tree.requestFocus());
        robot.type(KeyCode.ENTER);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> "read: connection reset by peer".equals(selectedViewerLine(robot)));
    }

    @Test
    void escAndCtrlWCloseTheWindow(FxRobot robot) throws Exception {
        for (KeyCode[] keys : List.of(new KeyCode[] {KeyCode.ESCAPE}, new KeyCode[] {KeyCode.CONTROL, KeyCode.W})) {
            robot.interact(() -> window.stage().requestFocus());
            robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.F).release(KeyCode.F, KeyCode.SHIFT, KeyCode.CONTROL);
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> searchWindow(robot) != null);
            Window search = searchWindow(robot);
            robot.interact(search::requestFocus);
            robot.press(keys).release(keys);
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> searchWindow(robot) == null);
        }
    }

    /** The showing "Search all runs" window, or null. */
    private static Window searchWindow(FxRobot robot) {
        return fx(robot, () -> Window.getWindows().stream().filter(w -> w.isShowing() && w instanceof Stage s
                && "Search all runs \u2014 runboard".equals(s.getTitle())).findFirst().orElse(null));
    }

    private static String selectedViewerLine(FxRobot robot) {
        return fx(robot, () -> Window.getWindows().stream()
                .map(w -> w.getScene().lookup("#viewerList"))
                .filter(n -> n instanceof ListView<?>)
                .map(n -> {
                    @SuppressWarnings("unchecked")
                    ListView<ViewerLine> l = (ListView<ViewerLine>) n;
                    ViewerLine sel = l.getSelectionModel().getSelectedItem();
                    return sel == null ? null : sel.text();
                })
                .filter(java.util.Objects::nonNull)
                .findFirst().orElse(null));
    }
}
