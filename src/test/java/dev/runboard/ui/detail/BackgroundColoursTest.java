package dev.runboard.ui.detail;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.ansi.AnsiTextFlow;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.sessions.SessionRow;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.paint.Color;
import javafx.scene.shape.Path;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * ANSI backgrounds in the output tail: white on red shows on a red fill, reverse video swaps the
 * pane's colours, and both read (contrast of at least 4.5, the WCAG's level for body text) on
 * the light and the dark theme.
 */
@ExtendWith(ApplicationExtension.class)
class BackgroundColoursTest {
    private static final long WAIT_S = 30;
    @TempDir
    java.nio.file.Path dataDir;
    private WindowFixture fixture;
    private MainWindow window;
    private final Theme theme = new Theme(false);

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir, theme);
        window = fixture.window();
    }

    @AfterEach
    void stop() throws Exception {
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> theme.darkProperty().set(false)); // the theme is the JVM's, not the window's
        fixture.close();
    }

    @Test
    void whiteOnRedAndReverseVideoArePaintedAndReadOnBothThemes(FxRobot robot) throws Exception {
        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell(
                "printf '\\033[41;37m ERR \\033[0m after\\n'; printf 'x \\033[7m REV \\033[0m y\\n'; printf '\\033[9mstruck\\033[29m not\\n'").cwd(dataDir).build()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.COMPLETED);
        robot.interact(() -> window.model().selectedProperty().set(row));

        Color red = Color.web("#cf222e");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> red.equals(fill(robot, " ERR ")));
        assertReadable(robot, " ERR ");
        assertCovers(robot, " ERR ");
        Text after = fx(robot, () -> run(robot, " after"));
        assertNotNull(after, "the text after the reset is its own run");
        assertEquals(1, fx(robot, () -> ((AnsiTextFlow) after.getParent()).backgrounds().size()), "only the red run has a fill");

        // Reverse video on the light theme: a dark fill (the pane's text colour) under light text.
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fill(robot, " REV ") != null);
        assertTrue(luminance(fill(robot, " REV ")) < 0.2, "reverse video on light is dark: " + fill(robot, " REV "));
        assertReadable(robot, " REV ");
        assertCovers(robot, " REV ");

        // SGR 9 is drawn struck through, and 29 ends it.
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> run(robot, "struck") != null));
        assertTrue(fx(robot, () -> run(robot, "struck").isStrikethrough()), "struck through");
        assertFalse(fx(robot, () -> run(robot, " not").isStrikethrough()));

        robot.interact(() -> theme.darkProperty().set(true));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fill(robot, " REV ") != null && luminance(fill(robot, " REV ")) > 0.5);
        assertEquals(red, fill(robot, " ERR "), "the fill's red is the same on the dark theme");
        assertReadable(robot, " ERR ");
        assertReadable(robot, " REV ");
    }

    /** The run of the tail with exactly this text, or null. */
    private static Text run(FxRobot robot, String text) {
        for (Node n : robot.lookup("#outputList .ansi-text").queryAll()) {
            if (n instanceof Text t && t.getText().equals(text) && t.isVisible() && t.getParent().isVisible()) {
                return t;
            }
        }
        return null;
    }

    /** The colour painted behind the run with this text, or null when it has none (yet). */
    private static Color fill(FxRobot robot, String text) {
        return fx(robot, () -> {
            Text t = run(robot, text);
            Path behind = t == null ? null : pathBehind(t);
            return behind == null ? null : (Color) behind.getFill();
        });
    }

    private static Path pathBehind(Text t) {
        AnsiTextFlow flow = (AnsiTextFlow) t.getParent();
        int k = 0;
        for (Node n : flow.getChildren()) {
            if (n == t) {
                return flow.backgrounds().get(k);
            }
            if (n instanceof Text other && flow.backgrounds().size() > k && other.getProperties().containsKey(dev.runboard.ui.ansi.StyledRun.BACKGROUND)) {
                k++;
            }
        }
        return null;
    }

    private static void assertReadable(FxRobot robot, String text) {
        Color back = fill(robot, text);
        Color front = fx(robot, () -> (Color) run(robot, text).getFill());
        double contrast = contrast(back, front);
        assertTrue(contrast >= 4.5, "'" + text + "' reads: " + front + " on " + back + " has contrast " + contrast);
    }

    /** The painted fill lies under the run's text, as wide as it. */
    private static void assertCovers(FxRobot robot, String text) {
        fx(robot, () -> {
            Text t = run(robot, text);
            Bounds glyphs = t.getBoundsInParent();
            Bounds painted = pathBehind(t).getBoundsInParent();
            assertTrue(painted.getWidth() >= glyphs.getWidth() - 1 && painted.getMinX() <= glyphs.getMinX() + 1
                    && painted.getMaxX() >= glyphs.getMaxX() - 1 && painted.getHeight() > 5,
                    "the fill " + painted + " covers the text " + glyphs);
            return null;
        });
    }

    private static double contrast(Color a, Color b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    private static double luminance(Color c) {
        return 0.2126 * linear(c.getRed()) + 0.7152 * linear(c.getGreen()) + 0.0722 * linear(c.getBlue());
    }

    private static double linear(double v) {
        return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    }
}
