package dev.runboard.ui.insight;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.process.LinuxProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The detail pane's process tree, pause/resume and stdin line, on the real window with real processes. */
@ExtendWith(ApplicationExtension.class)
class InsightPaneTest {
    private static final long WAIT_S = 20;

    @TempDir
    Path dataDir;

    private WindowFixture fixture;
    private SessionEngine engine;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir);
        engine = fixture.engine();
        window = fixture.window();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void treeShowsTheProcessesAndPauseResumeStopsAndContinuesThem(FxRobot robot) throws Exception {
        SessionRow row = launch(robot, "sleep 600 & sleep 601 & wait");
        @SuppressWarnings("unchecked")
        TreeTableView<ProcessRow> tree = robot.lookup("#processTree").queryAs(TreeTableView.class);
        // leader (the exit-status wrapper, or the shell) > ... > shell > two sleeps
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> tree.getRoot().getChildren().size() == 1
                && count(tree.getRoot()) >= 4));
        long pid = fx(robot, () -> row.snapshot().pid());
        assertEquals(pid, fx(robot, () -> tree.getRoot().getChildren().get(0).getValue().pid()));
        // The Command column names each process by its program and arguments, and runboard's wrapper by what it is.
        String leader = perlOnPath() ? CommandText.WRAPPER : "sh -c sleep 600 & sleep 601 & wait";
        // (The pane may be only three rows high: the first sleep is in view, the second may be below it.)
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> commandCells(robot).containsAll(java.util.List.of(leader, "sleep 600")));
        // Hovering the leader's cell shows its whole command line.
        javafx.scene.control.TreeTableCell<?, ?> leaderCell = fx(robot, () -> robot.lookup(".process-tree .command-column")
                .queryAll().stream().filter(n -> n instanceof javafx.scene.control.TreeTableCell<?, ?> c && leader.equals(c.getText()))
                .map(n -> (javafx.scene.control.TreeTableCell<?, ?>) n).findFirst().orElseThrow());
        robot.moveTo(leaderCell);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> leaderCell.getTooltip() != null
                && leaderCell.getTooltip().isShowing() && leaderCell.getTooltip().getText().contains("sleep 600 & sleep 601 & wait")));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> row.rssBytesProperty().get() != null));

        long command = commandOf(pid);
        robot.clickOn("#pauseToggle");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> state(command) == 'T');
        // The status says it, in the row's Status cell as in list and JSON (the engine's own snapshot).
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> statusCellReads(robot, row, "paused"));
        assertEquals(SessionStatus.PAUSED, engine.snapshot(row.id(), false).status());
        // And the header once: its status, not a badge beside it too ("paused paused"). Resume shows: the pane knows.
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup("#pauseToggle").queryButton().getText())
                .equals("Resume") && headerText(robot).contains("paused"));
        String header = headerText(robot);
        assertEquals(1, header.split("paused", -1).length - 1, "\"paused\" once in the header: " + header);

        robot.clickOn("#pauseToggle");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> state(command) != 'T');
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> !headerText(robot).contains("paused"));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> statusCellReads(robot, row, "running"));
        assertEquals(SessionStatus.RUNNING, engine.snapshot(row.id(), false).status());
    }

    @Test
    void aTreeStoppedFromOutsideReadsPausedUntilContinued(FxRobot robot) throws Exception {
        SessionRow row = launch(robot, "sleep 600");
        long command = commandOf(fx(robot, () -> row.snapshot().pid()));
        // Not through runboard: the monitor finds state T in /proc. (The command's group, below the wrapper.)
        new ProcessBuilder("kill", "-STOP", "--", "-" + command).start().waitFor();
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> statusCellReads(robot, row, "paused"));
        new ProcessBuilder("kill", "-CONT", "--", "-" + command).start().waitFor();
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> statusCellReads(robot, row, "running"));
    }

    /** The words the detail pane's header shows, " | " between its controls (icon-only buttons show none). */
    private static String headerText(FxRobot robot) {
        return fx(robot, () -> ((javafx.scene.layout.Pane) robot.lookup(".detail-header").query()).getChildren().stream()
                .filter(n -> n.isVisible() && n instanceof javafx.scene.control.Labeled l
                        && l.getContentDisplay() != javafx.scene.control.ContentDisplay.GRAPHIC_ONLY && l.getText() != null)
                .map(n -> ((javafx.scene.control.Labeled) n).getText()).collect(java.util.stream.Collectors.joining(" | ")));
    }

    /** The command the session's wrapper runs: its child, leading the command's own process group. */
    private static long commandOf(long wrapper) {
        return ProcessHandle.of(wrapper).orElseThrow().children().findFirst().orElseThrow().pid();
    }

    /** The Status cell of the row of this session shows {@code word}. */
    private static boolean statusCellReads(FxRobot robot, SessionRow row, String word) {
        return fx(robot, () -> robot.lookup(".session-table .status-cell").queryAll().stream()
                .map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                .anyMatch(c -> c.getTableRow() != null && c.getTableRow().getItem() == row && word.equals(c.getText())));
    }

    @Test
    void stdinLineSendsToCatAndCloseStdinEndsIt(FxRobot robot) throws Exception {
        SessionRow row = launch(robot, "cat");
        // The Facts tab has no end for it yet (not "Ended: running").
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> "not yet".equals(fx(robot, () -> robot.lookup("#factEnded")
                .queryLabeled().getText())));
        robot.clickOn("#stdinField").write("typed in the window");
        robot.clickOn("#stdinSend");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> engine.snapshot(row.id(), true).output().contains("typed in the window\n"));
        robot.clickOn("#stdinClose");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> row.status() == SessionStatus.COMPLETED));
        // An ended session's empty tree says why (a running one's says the tree is on its way).
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> "No processes: the session is not running."
                .equals(((javafx.scene.control.Label) robot.lookup("#processTree").queryAs(javafx.scene.control.TreeTableView.class)
                        .getPlaceholder()).getText())));
    }

    private SessionRow launch(FxRobot robot, String command) {
        SessionSpec spec = SessionSpec.shell(command).shell(Path.of("/bin/sh")).cwd(dataDir).build();
        return FxReads.await(robot, () -> window.model().launch(spec));
    }

    private static boolean perlOnPath() {
        return java.util.Arrays.stream(System.getenv("PATH").split(":"))
                .anyMatch(dir -> java.nio.file.Files.isExecutable(Path.of(dir.isEmpty() ? "." : dir, "perl")));
    }

    /** The texts of the Command cells the process tree shows. */
    private static java.util.List<String> commandCells(FxRobot robot) {
        return fx(robot, () -> robot.lookup(".process-tree .command-column").queryAll().stream()
                .filter(n -> n instanceof javafx.scene.control.TreeTableCell<?, ?>)
                .map(n -> ((javafx.scene.control.TreeTableCell<?, ?>) n).getText())
                .filter(java.util.Objects::nonNull)
                .toList());
    }

    private static int count(javafx.scene.control.TreeItem<?> item) {
        int n = item.getValue() == null ? 0 : 1;
        for (javafx.scene.control.TreeItem<?> c : item.getChildren()) {
            n += count(c);
        }
        return n;
    }

    private static char state(long pid) {
        return LinuxProcesses.readStat(pid).map(ProcInfo::state).orElse('?');
    }
}
