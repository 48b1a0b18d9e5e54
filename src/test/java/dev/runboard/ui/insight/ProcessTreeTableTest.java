package dev.runboard.ui.insight;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.testing.Poll;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The Processes tab's columns in a wide pane and in one narrowed by a workspace sidebar. */
@ExtendWith(ApplicationExtension.class)
class ProcessTreeTableTest {
    private static final long WAIT_S = 30;
    private ProcessTreeTable table;
    private Stage stage;

    /** A stage of its own: the primary one is shared by the other window tests, at the size they expect. */
    @Start
    void start(Stage primary) {
        stage = new Stage();
        table = new ProcessTreeTable((pid, signal, subtree) -> { });
        // The tree of a session as the sampler reads it: the wrapper, the shell, a deep child with a 7-digit pid.
        table.show(new ProcessTreeSnapshot(4_194_301, List.of(
                new ProcessTreeSnapshot.Node(4_194_301, 1, "/usr/bin/perl /home/u/.local/share/runboard/bin/runboard-wrap.pl"
                        + " /home/u/.local/share/runboard/sessions/x/exit-status 0 2000 /bin/sh -c ./build.sh", 'S', 0, 6_000_000, false),
                new ProcessTreeSnapshot.Node(4_194_302, 4_194_301, "/bin/sh -c ./build.sh", 'S', 0, 3_000_000, false),
                new ProcessTreeSnapshot.Node(4_194_303, 4_194_302, "/usr/bin/make -j2 all", 'R', 99.7, 1_500_000_000, false))));
        stage.setScene(new Scene(new StackPane(table), 600, 240));
        stage.show();
    }

    @Test
    void numbersKeepTheirWidthAndANarrowPaneDropsTheStateBeforeTheCommand(FxRobot robot) throws Exception {
        List<TreeTableColumn<ProcessRow, ?>> columns = fx(robot, () -> List.copyOf(table.getColumns()));
        TreeTableColumn<ProcessRow, ?> pid = columns.get(0);
        TreeTableColumn<ProcessRow, ?> state = columns.get(1);
        TreeTableColumn<ProcessRow, ?> command = columns.get(4);
        assertEquals("State", state.getText());
        assertTrue(fx(robot, state::isVisible), "a wide pane shows every column");
        assertEquals(command, fx(robot, table::getTreeColumn), "the tree's indent is the command's, not the PID's");
        double wideCommand = fx(robot, command::getWidth);

        robot.interact(() -> stage.setWidth(360));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !state.isVisible()));
        for (TreeTableColumn<ProcessRow, ?> number : List.of(pid, columns.get(2), columns.get(3))) {
            assertEquals(fx(robot, number::getPrefWidth), fx(robot, number::getWidth), 0.5, number.getText() + " is not squeezed");
        }
        assertTrue(fx(robot, command::getWidth) >= 90, "the command keeps room to be read");
        assertTrue(fx(robot, command::getWidth) < wideCommand, "and it is what gave way");

        robot.interact(() -> stage.setWidth(600));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, state::isVisible));
        assertFalse(fx(robot, () -> table.getRoot().getChildren().isEmpty()));
    }

    @AfterEach
    void close(FxRobot robot) {
        robot.interact(stage::close);
    }
}
