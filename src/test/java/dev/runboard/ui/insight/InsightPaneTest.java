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

    /**
     * Issue 47: at 1024x700 the Processes tab showed two or three processes. A tree of nine or ten (the
     * wrapper, the shell, eight sleeps) shows at least six whole rows there.
     */
    @Test
    void theProcessesTabShowsAtLeastSixRowsAtTheSmallestWindow(FxRobot robot) throws Exception {
        fixture.toSmallestSize(robot);
        SessionRow row = launch(robot, "for i in 1 2 3 4 5 6 7 8; do sleep 600 & done; wait");
        long pid = fx(robot, () -> row.snapshot().pid());
        // The shell and its eight sleeps (below runboard's wrapper where perl is on the PATH).
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> dev.runboard.ui.ProcFs.tree(pid).size() >= 9);
        java.util.List<Long> processes = dev.runboard.ui.ProcFs.tree(pid);
        try {
            @SuppressWarnings("unchecked")
            TreeTableView<ProcessRow> tree = robot.lookup("#processTree").queryAs(TreeTableView.class);
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> tree.getRoot() != null && count(tree.getRoot()) >= processes.size()));
            assertEquals("Processes", fx(robot, () -> selectedTabAbove(tree)), "the tab the detail pane opens on");
            assertEquals(MainWindow.MIN_HEIGHT, (int) Math.round(fx(robot, () -> window.stage().getScene().getHeight())),
                    "the scene took the size");
            // Rows are laid out at the next pulse after the tree fills: wait for as many as there will be.
            try {
                Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> wholeRowsInView(tree)) >= 6);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError(fx(robot, () -> wholeRowsInView(tree)) + " whole process rows in view at "
                        + MainWindow.MIN_WIDTH + "x" + MainWindow.MIN_HEIGHT + ", of " + fx(robot, () -> count(tree.getRoot()))
                        + " (" + fx(robot, () -> howHigh(tree)) + ")", e);
            }
        } finally {
            engine.kill(row.id(), dev.runboard.session.Signal.TERM, java.time.Duration.ofSeconds(1)).get(WAIT_S, TimeUnit.SECONDS);
        }
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> processes.stream().allMatch(dev.runboard.ui.ProcFs::gone));
    }

    /** The heights that decide how many rows show: the tree's, its rows' viewport's and one row's. */
    private static String howHigh(TreeTableView<?> tree) {
        javafx.scene.Node viewport = tree.lookup(".clipped-container");
        double row = tree.lookupAll(".tree-table-row-cell").stream().mapToDouble(n -> n.getLayoutBounds().getHeight())
                .max().orElse(0);
        return "tree " + Math.round(tree.getHeight()) + " px, rows' viewport " + Math.round(viewport.getLayoutBounds().getHeight())
                + " px, a row " + Math.round(row) + " px";
    }

    /** The title of the selected tab of the tab pane that holds {@code node}. */
    private static String selectedTabAbove(javafx.scene.Node node) {
        for (javafx.scene.Parent p = node.getParent(); p != null; p = p.getParent()) {
            if (p instanceof javafx.scene.control.TabPane tabs) {
                return tabs.getSelectionModel().getSelectedItem().getText();
            }
        }
        return null;
    }

    /** The tree's rows with a process that lie wholly inside the rows' viewport (not under the header, a scroll bar or below). */
    private static int wholeRowsInView(TreeTableView<?> tree) {
        javafx.scene.Node viewport = tree.lookup(".clipped-container");
        javafx.geometry.Bounds area = viewport.localToScene(viewport.getLayoutBounds());
        return (int) tree.lookupAll(".tree-table-row-cell").stream()
                .map(n -> (javafx.scene.control.TreeTableRow<?>) n)
                .filter(r -> r.isVisible() && !r.isEmpty() && r.getItem() != null)
                .map(r -> r.localToScene(r.getLayoutBounds()))
                .filter(b -> b.getMinY() >= area.getMinY() - 0.5 && b.getMaxY() <= area.getMaxY() + 0.5)
                .count();
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
