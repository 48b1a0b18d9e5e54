package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.testing.Poll;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.TableColumn;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** A column hidden from its title's context menu stays hidden when the window opens again, and comes back from the same menu. */
@ExtendWith(ApplicationExtension.class)
class ColumnChoiceTest {
    private static final long WAIT_S = 30;
    @TempDir
    Path dataDir;
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
    void aColumnHiddenFromItsTitlesMenuStaysHiddenAcrossRestartsAndComesBack(FxRobot robot) throws Exception {
        MainWindow window = fixture.window();
        wide(robot, window); // room for every column: what shows is the person's choice
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> column(window, "exitColumn").isVisible()));

        rightClickTitle(robot, "exitColumn");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#show-exitColumn").tryQuery().isPresent());
        // The columns that say which session a row is cannot be hidden; the others are checked while shown.
        assertFalse(robot.lookup("#show-statusColumn").tryQuery().isPresent());
        assertFalse(robot.lookup("#show-commandColumn").tryQuery().isPresent());
        assertTrue(fx(robot, () -> item(window, "exitColumn").isSelected()), "the menu says it shows");
        robot.clickOn("#show-exitColumn");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !column(window, "exitColumn").isVisible()));

        fixture.closeByItsButton(robot);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> WindowState.load(dataDir).hiddenColumns().contains("exitColumn"));
        fixture = fixture.reopen(robot, dataDir);
        MainWindow again = fixture.window();
        wide(robot, again);
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(fx(robot, () -> column(again, "exitColumn").isVisible()), "still hidden after a restart");
        assertTrue(fx(robot, () -> column(again, "outputColumn").isVisible()), "the others as they were");

        rightClickTitle(robot, "outputColumn");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#show-exitColumn").tryQuery().isPresent());
        assertFalse(fx(robot, () -> item(again, "exitColumn").isSelected()), "the menu says it is hidden");
        robot.clickOn("#show-exitColumn");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> column(again, "exitColumn").isVisible()));
        assertEquals(List.of(), fx(robot, () -> List.copyOf(again.controller().columnChoice().hiddenIds())));
    }

    @Test
    void aRightClickOnAColumnTitleDoesNotSortTheTableAndALeftClickDoes(FxRobot robot) throws Exception {
        MainWindow window = fixture.window();
        for (String command : List.of("echo b", "echo a")) { // listed as started: not in the Command column's order
            FxReads.await(robot, () -> window.model().launch(dev.runboard.session.SessionSpec.shell(command).cwd(dataDir).build()));
        }
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> commands(robot, window).size() == 2);
        assertEquals(List.of("echo b", "echo a"), commands(robot, window));

        javafx.geometry.Point2D commandTitle = fx(robot, () -> robot.point(title(robot, "commandColumn")).query());
        robot.clickOn(commandTitle, javafx.scene.input.MouseButton.SECONDARY);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(List.of("echo b", "echo a"), commands(robot, window), "a right-click does not sort");
        assertEquals(List.of(), fx(robot, () -> List.copyOf(window.controller().table().getSortOrder())), "nor shows a sort arrow");

        robot.clickOn(commandTitle);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> commands(robot, window).equals(List.of("echo a", "echo b")));
    }

    /** The rows' commands, top to bottom. */
    private static List<String> commands(FxRobot robot, MainWindow window) {
        return fx(robot, () -> window.controller().table().getItems().stream().map(r -> r.commandProperty().get()).toList());
    }

    /** The title of the column with this id; FX thread. */
    private static javafx.scene.Node title(FxRobot robot, String columnId) {
        return robot.lookup(".column-header").queryAll().stream()
                .filter(n -> n instanceof javafx.scene.control.skin.TableColumnHeader h && h.getTableColumn() != null
                        && columnId.equals(h.getTableColumn().getId()))
                .findFirst().orElseThrow();
    }

    /**
     * A right-click on the column's title, as the desktop reports it: Monocle's headless mode sends
     * the press and release but no context-menu request (TestFX/Monocle#12), so the request is fired
     * on the title where the platform would put it.
     */
    private static void rightClickTitle(FxRobot robot, String columnId) {
        javafx.scene.Node title = robot.lookup(".column-header").queryAll().stream()
                .filter(n -> n instanceof javafx.scene.control.skin.TableColumnHeader h && h.getTableColumn() != null
                        && columnId.equals(h.getTableColumn().getId()))
                .findFirst().orElseThrow();
        robot.moveTo(title);
        robot.interact(() -> {
            javafx.geometry.Bounds b = title.localToScreen(title.getBoundsInLocal());
            title.fireEvent(new javafx.scene.input.ContextMenuEvent(javafx.scene.input.ContextMenuEvent.CONTEXT_MENU_REQUESTED,
                    b.getWidth() / 2, b.getHeight() / 2, b.getCenterX(), b.getCenterY(), false, null));
        });
    }

    /** As wide as the screen. */
    private static void wide(FxRobot robot, MainWindow window) {
        robot.interact(() -> {
            javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
            window.stage().setX(screen.getMinX());
            window.stage().setWidth(screen.getWidth());
        });
    }

    private static CheckMenuItem item(MainWindow window, String id) {
        return (CheckMenuItem) window.controller().columnChoice().menu().getItems().stream()
                .filter(i -> ("show-" + id).equals(i.getId())).findFirst().orElseThrow();
    }

    private static TableColumn<?, ?> column(MainWindow window, String id) {
        return window.controller().table().getColumns().stream().filter(c -> id.equals(c.getId())).findFirst().orElseThrow();
    }
}
