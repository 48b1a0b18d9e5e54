package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.artifact.ViewerLine;
import dev.runboard.process.LinuxProcesses;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Drives the real window on headless Monocle with real processes in a temporary data dir. */
@ExtendWith(ApplicationExtension.class)
class MainWindowTest {
    private static final long WAIT_S = 20;

    @TempDir
    Path dataDir;
    @TempDir
    Path workDir;

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
    void sessionFromTheDialogRunsTicksAndKillEndsItsWholeTree(FxRobot robot) throws Exception {
        robot.clickOn("#newButton");
        robot.clickOn("#commandField").write("sleep 60 & sleep 60; wait");
        robot.interact(() -> robot.lookup("#cwdField").queryAs(TextField.class).setText(workDir.toString()));
        robot.clickOn("#launchButton");

        SessionRow row = waitForRow(robot, 1);
        assertEquals(SessionStatus.RUNNING, row.status());
        assertTrue(tableShows(robot, "running"), "the status cell reads running");
        assertEquals(Set.of("running"), rowStyle(robot, row), "the row is styled :running");
        Duration first = fx(robot, () -> row.elapsedProperty().get());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> row.elapsedProperty().get()).compareTo(first.plusMillis(400)) > 0);

        long pid = fx(robot, () -> row.snapshot().pid());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> ProcFs.tree(pid).size() >= 3);
        List<Long> tree = ProcFs.tree(pid);
        // The commands (not the wrapper at the root) run in the background, as the dialog's default says.
        for (long p : tree.subList(1, tree.size())) {
            assertEquals(SessionSpec.BACKGROUND_NICE, LinuxProcesses.readStat(p).orElseThrow().nice(), "niceness of " + p);
        }
        assertEquals("background (nice 10)", fx(robot, () -> robot.lookup("#factPriority").queryAs(Label.class).getText()));

        robot.clickOn("#killButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.KILLED);
        assertTrue(tableShows(robot, "killed"), "the status cell reads killed");
        assertEquals(Set.of("killed"), rowStyle(robot, row), "the row restyled itself :killed");
        for (long p : tree) {
            assertTrue(ProcFs.gone(p), "process " + p + " of the killed tree is gone from /proc");
        }
        String killFact = fx(robot, () -> robot.lookup("#factKill").queryAs(Label.class).getText());
        assertTrue(killFact.contains("0 survivors"), killFact);
    }

    @Test
    void aSessionEndingWhileTheWindowIsUnfocusedShowsAToastInTheWindowThatSelectsIt(FxRobot robot) throws Exception {
        robot.clickOn("#newButton");
        // Monocle reports every window focused, so take the focus away as the desktop would.
        robot.interact(() -> com.sun.javafx.stage.WindowHelper.setFocused(window.stage(), false));
        SessionRow row = launch(robot, SessionSpec.shell("echo all done; exit 3").cwd(workDir).build());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !robot.lookup(".toast").queryAll().isEmpty()));
        javafx.scene.Node toast = robot.lookup(".toast").query();
        assertTrue(fx(robot, () -> toast.getScene() == window.stage().getScene()),
                "the toast is part of the window, below its dialogs, not a popup over them");
        String body = fx(robot, () -> robot.lookup(".toast .toast-body").queryAs(Label.class).getText());
        assertTrue(body.startsWith("exit 3") && body.endsWith("all done"), body);

        robot.press(javafx.scene.input.KeyCode.ESCAPE).release(javafx.scene.input.KeyCode.ESCAPE); // close the dialog
        robot.interact(() -> window.model().selectedProperty().set(null));
        FxReads.clickOn(robot, toast);
        assertEquals(row, fx(robot, () -> window.model().selectedProperty().get()), "clicking the toast selects the session");
    }

    @Test
    void hugeOutputShowsTheTruncationNoticeAndTheViewerReachesTheLastLine(FxRobot robot) throws Exception {
        SessionRow row = launch(robot, SessionSpec.shell("seq 1 200000").cwd(workDir).build());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.COMPLETED);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup("#truncatedBar").query().isVisible()));
        String notice = fx(robot, () -> robot.lookup("#truncatedLabel").queryAs(Label.class).getText());
        assertTrue(notice.startsWith("1.2 MiB of output: this pane shows its start and end; the "), notice);
        // At the smallest window the sentence wraps and both links keep their words (issue 47: both were cut to "...").
        fixture.toSmallestSize(robot);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(MainWindow.MIN_WIDTH, (int) Math.round(fx(robot, () -> window.stage().getScene().getWidth())), "the scene took the size");
        for (String link : List.of("#openArtifactLink", "#openArtifactExternal")) {
            javafx.scene.control.Hyperlink h = robot.lookup(link).queryAs(javafx.scene.control.Hyperlink.class);
            assertEquals(fx(robot, h::getText), fx(robot, () -> ClippedControls.drawnText(h)), link + " as drawn");
        }
        assertEquals(List.of(), fx(robot, () -> ClippedControls.under(robot.lookup("#truncatedBar").query())), "cut short in the notice");
        String drawn = fx(robot, () -> ClippedControls.drawnText(robot.lookup("#truncatedLabel").queryAs(Label.class)));
        assertEquals(notice, drawn, "the sentence, wrapped, is drawn whole");

        robot.clickOn("#openArtifactLink");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> viewerList(robot) != null
                && viewerList(robot).getItems() != null && !viewerList(robot).getItems().isEmpty()));
        ListView<ViewerLine> viewer = viewerList(robot);
        assertEquals("1", fx(robot, () -> viewer.getItems().get(0).text()));

        robot.clickOn("#viewerEnd");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> {
            List<ViewerLine> shown = viewer.getItems();
            ViewerLine last = shown.get(shown.size() - 1);
            return last.text().equals("200000") && last.number() == 199_999;
        }));

        robot.clickOn("#viewerFind").write("150000").type(javafx.scene.input.KeyCode.ENTER);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> {
            ViewerLine selected = viewer.getSelectionModel().getSelectedItem();
            return selected != null && selected.text().equals("150000");
        }));
    }

    @Test
    void exitCodeAndTimeoutShowInTheTable(FxRobot robot) throws Exception {
        SessionRow failed = launch(robot, SessionSpec.shell("echo bad; exit 3").cwd(workDir).build());
        SessionRow timedOut = launch(robot, SessionSpec.shell("sleep 30").cwd(workDir)
                .timeout(Duration.ofSeconds(1)).grace(Duration.ofMillis(500)).build());

        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, failed::status) == SessionStatus.FAILED);
        assertEquals("3", fx(robot, () -> failed.exitProperty().get()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, timedOut::status) == SessionStatus.TIMEOUT);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(tableShows(robot, "failed"));
        assertTrue(tableShows(robot, "timeout"));
        assertTrue(tableShows(robot, "3"), "the exit column shows 3");
    }

    @Test
    void aWorkingDirTooLongForItsColumnShowsItsLastFolder(FxRobot robot) throws Exception {
        java.nio.file.Path deep = java.nio.file.Files.createDirectories(
                workDir.resolve("a-rather-long-folder-name/and-another-one/the-project-folder"));
        SessionRow row = launch(robot, SessionSpec.shell("true").cwd(deep).build());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.COMPLETED);
        WaitForAsyncUtils.waitForFxEvents();
        // What the cell draws, cut to its width: the start gives way, the folder's own name stays.
        String shown = fx(robot, () -> robot.lookup(".session-table .cwd-cell").queryAll().stream()
                .map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                .filter(c -> c.getTableRow() != null && c.getTableRow().getItem() == row)
                .map(c -> ((javafx.scene.text.Text) c.lookup(".text")).getText())
                .findFirst().orElseThrow());
        // However wide the column is in this run: an ellipsis, then the path's own end.
        assertTrue(shown.startsWith("...") && shown.length() > 3 && deep.toString().endsWith(shown.substring(3)), shown);
    }

    @Test
    void invalidCwdShowsTheFieldErrorAndStartsNothing(FxRobot robot) throws Exception {
        robot.clickOn("#newButton");
        robot.interact(() -> {
            robot.lookup("#commandField").queryAs(TextField.class).setText("echo never");
            robot.lookup("#cwdField").queryAs(TextField.class).setText(workDir.resolve("missing").toString());
        });
        robot.clickOn("#launchButton");
        WaitForAsyncUtils.waitForFxEvents();

        Label error = robot.lookup("#cwdError").queryAs(Label.class);
        assertTrue(fx(robot, error::isVisible), "the cwd error is shown");
        assertEquals("cwd " + workDir.resolve("missing") + " does not exist", fx(robot, error::getText));
        assertTrue(engine.sessions().isEmpty(), "nothing was started");
        assertTrue(fx(robot, () -> window.sessions().rows().isEmpty()));
        assertTrue(robot.lookup("#launchButton").tryQuery().isPresent(), "the dialog stays open");
        robot.clickOn("#cancelButton");
    }

    @Test
    void theTailFollowsNewOutputUntilAPersonScrollsUpAndResumeFollowsAgain(FxRobot robot) throws Exception {
        launch(robot, SessionSpec.shell("i=0; while true; do i=$((i+1)); echo \"line $i\"; sleep 0.02; done").cwd(workDir).build());
        waitForRow(robot, 1);
        robot.interact(() -> robot.lookup(".session-table").queryAs(TableView.class).getSelectionModel().select(0));
        ListView<?> tail = robot.lookup("#outputList").queryAs(ListView.class);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> tail.getItems().size()) > 60);
        // Following: the newest line is the last one on screen, poll after poll.
        for (int seen = 0; seen < 3; seen++) {
            int before = fx(robot, () -> tail.getItems().size());
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> tail.getItems().size()) > before
                    && fx(robot, () -> lastShownIndex(tail) == tail.getItems().size() - 1));
        }

        // The tail changes on every poll: its position is read on the FX thread (FxReads.clickOn says why).
        FxReads.clickOn(robot, tail).type(KeyCode.PAGE_UP);
        assertTrue(fx(robot, () -> robot.lookup("#resumeFollowButton").query().isVisible()), "paused: the resume button shows");
        int pausedAt = fx(robot, () -> lastShownIndex(tail));
        int size = fx(robot, () -> tail.getItems().size());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> tail.getItems().size()) > size + 20);
        assertEquals(pausedAt, (int) fx(robot, () -> lastShownIndex(tail)), "new output does not move a paused view");

        FxReads.clickOn(robot, "#resumeFollowButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> lastShownIndex(tail) == tail.getItems().size() - 1));
        assertTrue(fx(robot, () -> !robot.lookup("#resumeFollowButton").query().isVisible()));
    }

    @Test
    void afterAFloodTheTailCatchesUpWithTheLastLineWhileTheSessionStillRuns(FxRobot robot) throws Exception {
        // 3 MB in well under a second: the tail is redrawn at most twice a second meanwhile, then shows the end.
        launch(robot, SessionSpec.shell("yes 'a line of build output that goes on for a while' | head -n 60000; echo LAST-LINE; sleep 30")
                .cwd(workDir).build());
        waitForRow(robot, 1);
        robot.interact(() -> robot.lookup(".session-table").queryAs(TableView.class).getSelectionModel().select(0));
        ListView<?> tail = robot.lookup("#outputList").queryAs(ListView.class);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !tail.getItems().isEmpty()
                && ((dev.runboard.ui.ansi.StyledLine) tail.getItems().get(tail.getItems().size() - 1)).plain().equals("LAST-LINE")));
        assertEquals(SessionStatus.RUNNING, fx(robot, () -> window.sessions().rows().get(0).status()), "caught up before the end, not because of it");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> lastShownIndex(tail) == tail.getItems().size() - 1));
    }

    /** The index of the last tail line fully on screen. */
    private static int lastShownIndex(ListView<?> list) {
        javafx.scene.control.skin.VirtualFlow<?> flow = (javafx.scene.control.skin.VirtualFlow<?>) list.lookup(".virtual-flow");
        javafx.geometry.Bounds view = flow.localToScene(flow.getLayoutBounds());
        int last = -1;
        for (javafx.scene.Node n : list.lookupAll(".tail-line")) {
            javafx.scene.control.IndexedCell<?> cell = (javafx.scene.control.IndexedCell<?>) n;
            javafx.geometry.Bounds b = cell.localToScene(cell.getLayoutBounds());
            if (cell.isVisible() && !cell.isEmpty() && b.getMinY() >= view.getMinY() - 0.5 && b.getMaxY() <= view.getMaxY() + 0.5) {
                last = Math.max(last, cell.getIndex());
            }
        }
        return last;
    }

    private SessionRow launch(FxRobot robot, SessionSpec spec) {
        return FxReads.await(robot, () -> window.model().launch(spec));
    }

    private SessionRow waitForRow(FxRobot robot, int count) throws TimeoutException {
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().rows().size()) >= count);
        return fx(robot, () -> window.sessions().rows().get(count - 1));
    }

    @SuppressWarnings("unchecked")
    private static ListView<ViewerLine> viewerList(FxRobot robot) {
        return (ListView<ViewerLine>) robot.lookup("#viewerList").tryQuery().orElse(null);
    }

    /** The status pseudo-classes of the table row showing {@code row}. */
    private static Set<String> rowStyle(FxRobot robot, SessionRow row) {
        Set<String> statuses = java.util.Arrays.stream(SessionStatus.values()).map(SessionStatus::word)
                .collect(java.util.stream.Collectors.toSet());
        return fx(robot, () -> robot.lookup(".session-row").queryAllAs(javafx.scene.control.TableRow.class).stream()
                .filter(r -> r.getItem() == row).findFirst().orElseThrow().getPseudoClassStates().stream()
                .map(javafx.css.PseudoClass::getPseudoClassName).filter(statuses::contains)
                .collect(java.util.stream.Collectors.toSet()));
    }

    private static boolean tableShows(FxRobot robot, String text) {
        return fx(robot, () -> robot.lookup(".session-table").queryAs(TableView.class) != null
                && robot.lookup(".session-table .table-cell").queryAll().stream()
                        .map(n -> ((javafx.scene.control.Labeled) n).getText())
                        .anyMatch(text::equals));
    }
}
