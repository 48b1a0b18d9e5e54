package dev.runboard.ui.insight;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.ui.common.Theme;
import java.util.List;
import javafx.scene.Scene;
import javafx.scene.canvas.Canvas;
import javafx.scene.image.PixelReader;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import javafx.scene.shape.Line;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** A sparkline drawn in the light theme is redrawn in the dark theme's colour when the theme switches. */
@ExtendWith(ApplicationExtension.class)
class SparklineThemeTest {
    private Stage stage;
    private Theme theme;
    private Sparkline spark;

    @Start
    void start(Stage primary) {
        // A stage of its own: the primary stage is shared with later window tests and keeps its size.
        stage = new Stage();
        theme = new Theme(false);
        spark = new Sparkline("CPU", "sparkline-cpu", v -> v + "%", 5);
        Scene scene = new Scene(new StackPane(spark), 320, 120);
        scene.getStylesheets().add(InsightPane.class.getResource(InsightPane.STYLESHEET).toExternalForm());
        theme.register(scene);
        stage.setScene(scene);
        stage.show();
    }

    @AfterEach
    void restore(FxRobot robot) {
        // The theme sets the application's user-agent stylesheet: later tests expect the light one.
        robot.interact(() -> {
            theme.darkProperty().set(false);
            stage.hide();
        });
    }

    @Test
    void theLineTakesTheDarkThemesColourWhenTheThemeSwitches(FxRobot robot) {
        robot.interact(() -> spark.show(List.of(1.0, 4.0, 2.0, 5.0, 3.0, 5.0), "3%", "peak 5%"));
        WaitForAsyncUtils.waitForFxEvents();
        Color light = fx(robot, this::stroke);
        assertTrue(drawnIn(robot, light), "drawn in the light theme's colour " + light);

        robot.interact(() -> theme.darkProperty().set(true));
        WaitForAsyncUtils.waitForFxEvents();
        Color dark = fx(robot, this::stroke);
        assertNotEquals(light, dark, "the themes give the line different colours");
        assertNotEquals(Color.BLACK, dark);
        assertTrue(drawnIn(robot, dark), "redrawn in the dark theme's colour " + dark + ", not left in " + light);
    }

    private Color stroke() {
        return (Color) ((Line) spark.lookup(".sparkline-stroke")).getStroke();
    }

    /** Some pixel of the chart is the line's colour (its flat top segment is drawn unblended). */
    private boolean drawnIn(FxRobot robot, Color colour) {
        return fx(robot, () -> {
            Canvas canvas = (Canvas) ((javafx.scene.Parent) spark.lookup(".sparkline-plot")).getChildrenUnmodifiable().get(0);
            PixelReader pixels = canvas.snapshot(null, null).getPixelReader();
            for (int y = 0; y < (int) canvas.getHeight(); y++) {
                for (int x = 0; x < (int) canvas.getWidth(); x++) {
                    Color c = pixels.getColor(x, y);
                    if (Math.abs(c.getRed() - colour.getRed()) < 0.06 && Math.abs(c.getGreen() - colour.getGreen()) < 0.06
                            && Math.abs(c.getBlue() - colour.getBlue()) < 0.06 && c.getOpacity() > 0.9) {
                        return true;
                    }
                }
            }
            return false;
        });
    }
}
