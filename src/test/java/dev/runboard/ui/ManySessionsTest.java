package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.testing.Poll;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.ui.sessions.StatusFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
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

/** Acting on many sessions at once, undoing a removal, and a filter that hides everything, on the real window. */
@ExtendWith(ApplicationExtension.class)
class ManySessionsTest {
    private static final long WAIT_S = 30;

    @TempDir
    Path dataDir;
    @TempDir
    Path workDir;

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
    void oneCtrlKKillsEverySelectedSessionAndRemoveWaitsForItsUndoWindow(FxRobot robot) throws Exception {
        List<SessionRow> sleepers = List.of(launch(robot, "sleep 60"), launch(robot, "sleep 61"), launch(robot, "sleep 62"));
        SessionRow done = launch(robot, "echo done");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, done::status) == SessionStatus.COMPLETED);

        robot.interact(() -> table(robot).getSelectionModel().clearAndSelect(0));
        assertFalse(fx(robot, () -> robot.lookup("#selectionLabel").queryAs(Label.class).isVisible()), "one row: no count");
        robot.interact(() -> table(robot).getSelectionModel().selectAll());
        Label selected = fx(robot, () -> robot.lookup("#selectionLabel").queryAs(Label.class));
        assertEquals("4 selected", fx(robot, selected::getText));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> selected.isVisible() && selected.getWidth() > 0));
        robot.interact(() -> table(robot).requestFocus());
        robot.press(KeyCode.CONTROL, KeyCode.K).release(KeyCode.K, KeyCode.CONTROL);
        for (SessionRow r : sleepers) {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, r::status) == SessionStatus.KILLED);
        }
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.model().messageProperty().get())
                .equals("Killed 3 sessions: 0 survivors"));

        // Remove: the rows go at once; the store and every file of them stay until Undo has passed.
        List<Path> artifacts = fx(robot, () -> window.sessions().rows().stream().map(r -> dev.runboard.ui.main.PendingRemovals.outputFileOf(r).orElseThrow()).toList());
        assertTrue(artifacts.stream().allMatch(Files::exists), "every session has its output file");
        robot.interact(() -> table(robot).getSelectionModel().selectAll());
        robot.clickOn("#toolbarRemove");
        assertEquals(0, (int) fx(robot, () -> window.sessions().rows().size()), "the rows left the table");
        String said = fx(robot, () -> window.model().messageProperty().get());
        assertTrue(said.matches("Removed 4 sessions; .+ of output will be deleted in 10 s"), said);
        assertEquals(4, fixture.engine().sessions().size(), "nothing is removed from the store during the undo window");
        robot.clickOn("#undoButton");
        assertEquals(4, (int) fx(robot, () -> window.sessions().rows().size()), "Undo brought every row back");
        assertTrue(artifacts.stream().allMatch(Files::exists), "and every file with it");

        // Remove again: deleted for good once the (shortened) window has passed, record, capture and artifact alike.
        robot.interact(() -> window.model().removals().setWindow(javafx.util.Duration.seconds(1)));
        robot.interact(() -> table(robot).getSelectionModel().selectAll());
        robot.interact(() -> window.controller().selection().remove());
        assertTrue(artifacts.stream().allMatch(Files::exists), "the files wait for the undo window");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fixture.engine().sessions().isEmpty()
                && artifacts.stream().noneMatch(Files::exists));
        assertEquals(0, (int) fx(robot, () -> window.model().removals().pendingCount()));
    }

    @Test
    void undoPutsARemovedRowBackWhereItStoodNotAfterTheRunningOnes(FxRobot robot) throws Exception {
        SessionRow first = launch(robot, "echo first");
        SessionRow running = launch(robot, "sleep 60");
        SessionRow last = launch(robot, "echo last");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> first.status() == SessionStatus.COMPLETED
                && last.status() == SessionStatus.COMPLETED));
        robot.interact(() -> table(robot).getSelectionModel().selectAll());
        robot.clickOn("#toolbarRemove"); // the running one stays
        assertEquals(List.of(running), fx(robot, () -> List.copyOf(table(robot).getItems())));
        robot.clickOn("#undoButton");
        assertEquals(List.of("echo first", "sleep 60", "echo last"), fx(robot, () -> table(robot).getItems().stream()
                .map(r -> r.commandProperty().get()).toList()), "the table's rows in started order again");
    }

    /**
     * Issue 47: beside a long sentence the toast's Undo button was squeezed to "U..." at 1024x700. Removing
     * one finished session names its command in the toast, so the sentence fills the toast's width.
     */
    @Test
    void theUndoToastShowsItsWholeButtonBesideALongSentenceAtTheSmallestWindow(FxRobot robot) throws Exception {
        fixture.toSmallestSize(robot);
        SessionRow done = launch(robot, "echo a finished build whose command line is long enough to fill the toast");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, done::status) == SessionStatus.COMPLETED);
        robot.interact(() -> table(robot).getSelectionModel().select(done));
        robot.clickOn("#toolbarRemove");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#undoButton").tryQuery().isPresent());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(MainWindow.MIN_WIDTH, (int) Math.round(fx(robot, () -> window.stage().getScene().getWidth())), "the scene took the size");
        Button undo = robot.lookup("#undoButton").queryAs(Button.class);
        String sentence = fx(robot, () -> ((Label) ((javafx.scene.layout.HBox) undo.getParent()).getChildren().get(0)).getText());
        assertTrue(sentence.contains("long enough to fill the toast"), "the toast names the removed command: " + sentence);
        assertEquals("Undo", fx(robot, () -> ClippedControls.drawnText(undo)), "the button's word as drawn");
        assertEquals(List.of(), fx(robot, () -> ClippedControls.under(undo.getParent().getParent())), "cut short in the toast");

        robot.clickOn("#undoButton"); // nothing left pending when the window closes
        assertEquals(List.of(done.id()), fx(robot, () -> table(robot).getItems().stream().map(SessionRow::id).toList()), "Undo put it back");
    }

    @Test
    void aFilterThatHidesEverythingSaysSoAndOffersToClearIt(FxRobot robot) throws Exception {
        launch(robot, "echo one");
        launch(robot, "echo two");
        robot.interact(() -> window.sessions().filterTextProperty().set("zzz"));
        WaitForAsyncUtils.waitForFxEvents();
        String text = fx(robot, () -> robot.lookup("#tablePlaceholder").queryAs(Label.class).getText());
        assertEquals("No sessions match \u201Czzz\u201D (2 hidden).", text);
        robot.clickOn("#clearFilterButton");
        assertEquals("", fx(robot, () -> window.sessions().filterTextProperty().get()));
        assertEquals(2, (int) fx(robot, () -> table(robot).getItems().size()));
    }

    @Test
    void theKillControlsFollowTheRowTheTableReallySelectsWhenTheFilterHidesTheEndedOne(FxRobot robot) throws Exception {
        SessionRow first = launch(robot, "sleep 60");
        SessionRow second = launch(robot, "sleep 61");
        robot.interact(() -> {
            window.sessions().statusFilterProperty().set(StatusFilter.RUNNING);
            window.model().selectedProperty().set(first);
        });
        fixture.engine().kill(first.id(), Signal.TERM, Duration.ofSeconds(1)).get(WAIT_S, TimeUnit.SECONDS);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> table(robot).getItems().size()) == 1);
        WaitForAsyncUtils.waitForFxEvents();
        // Whatever the table now shows selected, the actions act on exactly that.
        List<SessionRow> shown = fx(robot, () -> List.copyOf(table(robot).getSelectionModel().getSelectedItems()));
        assertEquals(shown, fx(robot, () -> List.copyOf(window.controller().selection().chosen())));
        boolean killEnabled = !fx(robot, () -> robot.lookup("#toolbarKill").queryAs(Button.class).isDisabled());
        assertEquals(shown.contains(second), killEnabled, "Kill is enabled exactly when a running row is selected");
        if (!shown.contains(second)) {
            robot.interact(() -> table(robot).getSelectionModel().select(second));
        }
        assertFalse(fx(robot, () -> robot.lookup("#toolbarKill").queryAs(Button.class).isDisabled()));
        robot.interact(() -> table(robot).requestFocus());
        robot.press(KeyCode.CONTROL, KeyCode.K).release(KeyCode.K, KeyCode.CONTROL);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, second::status) == SessionStatus.KILLED);
    }

    @Test
    void theStatusChoiceInTheToolBarFiltersTheTable(FxRobot robot) throws Exception {
        SessionRow failed = launch(robot, "exit 3");
        SessionRow completed = launch(robot, "true");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, failed::status) == SessionStatus.FAILED
                && fx(robot, completed::status) == SessionStatus.COMPLETED);

        robot.clickOn("#statusChoice");
        FxReads.clickOn(robot, inPopup(robot, SessionStatus.FAILED.word()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> table(robot).getItems().equals(List.of(failed))));
        assertEquals(StatusFilter.FAILED, fx(robot, () -> window.sessions().statusFilterProperty().get()));

        robot.clickOn("#statusChoice");
        FxReads.clickOn(robot, inPopup(robot, StatusFilter.ALL.toString()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> table(robot).getItems().size()) == 2);
    }

    @Test
    void theStatusChoiceOffersEveryStatusOfTheContract(FxRobot robot) throws Exception {
        SessionRow completed = launch(robot, "true");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, completed::status) == SessionStatus.COMPLETED);

        robot.clickOn("#statusChoice");
        inPopup(robot, StatusFilter.ALL.toString());
        List<String> offered = fx(robot, () -> robot.lookup(n -> n instanceof javafx.scene.control.Labeled
                        && n.getScene() != window.stage().getScene() && n.isVisible()).queryAllAs(javafx.scene.control.Labeled.class)
                .stream().map(javafx.scene.control.Labeled::getText).toList());
        for (String word : List.of("pending", "queued", "running", "paused", "completed", "failed", "timeout", "killed",
                "skipped", "unknown")) {
            assertTrue(offered.contains(word), word + " is offered: " + offered);
        }
        // A waiting status hides the finished row and says which filter did it.
        FxReads.clickOn(robot, inPopup(robot, "pending"));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> table(robot).getItems().isEmpty()));
        assertEquals("No sessions match the status filter pending (1 hidden).",
                fx(robot, () -> robot.lookup("#tablePlaceholder").queryAs(Label.class).getText()));
    }

    /** The entry of an open drop-down that reads {@code text} (the table's cells may read the same). */
    private javafx.scene.Node inPopup(FxRobot robot, String text) throws Exception {
        java.util.function.Supplier<java.util.Optional<javafx.scene.Node>> find = () -> robot.lookup(n ->
                n instanceof javafx.scene.control.Labeled l && text.equals(l.getText()) && n.getScene() != window.stage().getScene()
                        && n.isVisible()).tryQuery();
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> find.get().isPresent());
        return find.get().orElseThrow();
    }

    private SessionRow launch(FxRobot robot, String command) {
        return FxReads.await(robot, () -> window.model().launch(SessionSpec.shell(command).cwd(workDir).build()));
    }

    @SuppressWarnings("unchecked")
    private static TableView<SessionRow> table(FxRobot robot) {
        return robot.lookup(".session-table").queryAs(TableView.class);
    }
}
