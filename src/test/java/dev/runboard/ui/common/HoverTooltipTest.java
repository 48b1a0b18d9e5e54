package dev.runboard.ui.common;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.runboard.testing.Poll;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** A cell's tooltip is made when the pointer comes, and then shows the text it was last given. */
@ExtendWith(ApplicationExtension.class)
class HoverTooltipTest {
    private static final long WAIT_S = 30;
    private Label cell;
    private Label elsewhere;
    private HoverTooltip tip;

    @Start
    void start(Stage stage) {
        cell = new Label("/home/someone/projects/runboard");
        elsewhere = new Label("elsewhere");
        tip = new HoverTooltip(cell);
        stage.setScene(new Scene(new HBox(40, cell, elsewhere), 500, 100));
        stage.show();
    }

    @Test
    void theTooltipIsMadeOnHoverAndShowsTheLatestText(FxRobot robot) throws Exception {
        robot.interact(() -> {
            tip.setText("first");
            tip.setText("/home/someone/projects/runboard");
        });
        assertNull(fx(robot, cell::getTooltip), "no tooltip before the pointer came");

        robot.moveTo(cell);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> cell.getTooltip() != null && cell.getTooltip().isShowing()));
        assertEquals("/home/someone/projects/runboard", fx(robot, () -> cell.getTooltip().getText()));

        robot.moveTo(elsewhere);
        robot.interact(() -> tip.setText("/tmp"));
        robot.moveTo(cell);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> cell.getTooltip() != null && cell.getTooltip().isShowing()));
        assertEquals("/tmp", fx(robot, () -> cell.getTooltip().getText()));

        robot.interact(() -> tip.setText(null)); // a row without one under the pointer: nothing to show
        assertNull(fx(robot, cell::getTooltip));
    }
}
