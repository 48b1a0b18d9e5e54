package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.ui.launch.NewSessionViewModel;
import java.nio.file.Path;
import javafx.geometry.Bounds;
import javafx.geometry.Rectangle2D;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The New session dialog with 150 clicks on "+ Add variable": the rows stop at the limit, the
 * dialog stays on the screen with Launch in view (the form scrolls), and the heap does not balloon
 * (it once grew by 1 GB and kept it after Cancel).
 */
@ExtendWith(ApplicationExtension.class)
class NewSessionDialogFitTest {
    @TempDir
    Path dataDir;

    private WindowFixture fixture;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir);
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void manyVariablesKeepTheDialogOnScreenAndTheHeapSmall(FxRobot robot) throws Exception {
        long before = usedHeapAfterGc();
        robot.clickOn("#newButton");
        Button add = robot.lookup("#addEnvButton").queryAs(Button.class);
        for (int i = 0; i < 150; i++) {
            robot.interact(add::fire);
        }
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(NewSessionViewModel.MAX_ENV_ROWS, robot.lookup(".env-row").queryAll().size());
        assertTrue(fx(robot, add::isDisabled), "+ Add variable is disabled at the limit");

        Window dialog = fx(robot, () -> add.getScene().getWindow());
        Rectangle2D screen = fx(robot, () -> Screen.getPrimary().getVisualBounds());
        assertTrue(fx(robot, () -> dialog.getHeight()) <= screen.getHeight(), "no taller than the screen");
        assertTrue(fx(robot, () -> dialog.getY() + dialog.getHeight()) <= screen.getMaxY() + 0.5, "its bottom is on the screen");
        Node launch = robot.lookup("#launchButton").query();
        Bounds inWindow = fx(robot, () -> launch.localToScene(launch.getLayoutBounds()));
        assertTrue(inWindow.getMaxY() <= fx(robot, () -> launch.getScene().getHeight()) + 0.5, "Launch is in view");

        long grown = usedHeapAfterGc() - before;
        System.out.printf("heap after 150 clicks on + Add variable: %+d MB%n", grown >> 20);
        assertTrue(grown < 150L << 20, () -> "the heap grew by " + (grown >> 20) + " MB; what it holds most:\n" + largestClasses());
        robot.clickOn("#cancelButton");
    }

    /** As it opens, and with every field's error shown (they make the form taller, not wider), nothing reads "…". */
    @Test
    void nothingInTheDialogIsCutOff(FxRobot robot) throws Exception {
        robot.clickOn("#newButton");
        WaitForAsyncUtils.waitForFxEvents();
        Node launch = robot.lookup("#launchButton").query();
        javafx.scene.Scene dialog = fx(robot, launch::getScene);
        assertEquals(java.util.List.of(), fx(robot, () -> ClippedControls.in(dialog)), "clipped as the dialog opens");
        robot.interact(() -> {
            robot.lookup("#commandField").queryAs(javafx.scene.control.TextField.class).setText("make");
            robot.lookup("#cwdField").queryAs(javafx.scene.control.TextField.class).setText(dataDir.resolve("missing").toString());
            robot.lookup("#timeoutField").queryAs(javafx.scene.control.TextField.class).setText("soon");
        });
        robot.clickOn("#launchButton");
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(fx(robot, () -> robot.lookup("#timeoutError").query().isVisible()), "the errors are shown");
        assertEquals(java.util.List.of(), fx(robot, () -> ClippedControls.in(dialog)), "clipped with the errors shown");

        // The longest one-line refusal the form has: an sbatch argument that is runboard's to set, said under the field.
        robot.interact(() -> {
            robot.lookup("#cwdField").queryAs(javafx.scene.control.TextField.class).setText(dataDir.toString());
            robot.lookup("#timeoutField").queryAs(javafx.scene.control.TextField.class).setText("");
            robot.lookup("#slurmCheck").queryAs(javafx.scene.control.CheckBox.class).setSelected(true);
            robot.lookup("#sbatchField").queryAs(javafx.scene.control.TextField.class).setText("--partition=gpu -omine.log");
        });
        WindowFixture.pressAfterChange(robot, "#launchButton");
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.Label slurmError = robot.lookup("#slurmError").queryAs(javafx.scene.control.Label.class);
        assertTrue(fx(robot, () -> slurmError.isVisible() && slurmError.getText().contains("is runboard's to set (--output)")),
                fx(robot, slurmError::getText));
        assertEquals(java.util.List.of(), fx(robot, () -> ClippedControls.in(dialog)), "clipped with the sbatch refusal shown");
        WindowFixture.pressAfterChange(robot, "#cancelButton");
    }

    /** The top of this JVM's class histogram (jcmd GC.class_histogram), to say what a grown heap holds. */
    private static String largestClasses() {
        try {
            Process jcmd = new ProcessBuilder("jcmd", Long.toString(ProcessHandle.current().pid()), "GC.class_histogram")
                    .redirectErrorStream(true).start();
            String out = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            jcmd.waitFor();
            return out.lines().limit(18).collect(java.util.stream.Collectors.joining("\n"));
        } catch (java.io.IOException | InterruptedException e) {
            return "(no histogram: " + e + ")";
        }
    }

    private static long usedHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
