package dev.runboard.ui.viewer;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.testing.Poll;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.RecordingDesktop;
import dev.runboard.ui.common.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The viewer on a file that is gone and on an empty one: it says what happened and what to do, and stops its progress dot. */
@ExtendWith(ApplicationExtension.class)
class ViewerNoticeTest {
    @TempDir
    Path dir;

    @Start
    void start(Stage stage) {
        javafx.application.Platform.setImplicitExit(false);
    }

    @Test
    void aDeletedArtifactSaysItIsGone(FxRobot robot) throws Exception {
        Path missing = dir.resolve("gone.log");
        Stage viewer = fx(robot, () -> new ArtifactViewer(new Theme(false), new RecordingDesktop(), new FxUiTasks()).open(null, missing));
        try {
            String text = fx(robot, () -> robot.lookup("#viewerNotice").queryAs(Label.class).getText());
            assertTrue(text.startsWith("The output file is gone: " + missing), text);
            assertFalse(fx(robot, () -> robot.lookup("#viewerProgress").query().isVisible()), "no endless progress dot");
        } finally {
            robot.interact(viewer::hide);
        }
    }

    @Test
    void anEmptyArtifactSaysTheCommandWroteNothing(FxRobot robot) throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.log"));
        Stage viewer = fx(robot, () -> new ArtifactViewer(new Theme(false), new RecordingDesktop(), new FxUiTasks()).open(null, empty));
        try {
            Poll.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup("#viewerNotice").tryQuery().isPresent());
            String text = fx(robot, () -> robot.lookup("#viewerNotice").queryAs(Label.class).getText());
            assertTrue(text.startsWith("The output is empty"), text);
            Poll.waitFor(20, TimeUnit.SECONDS, () -> !fx(robot, () -> robot.lookup("#viewerProgress").query().isVisible()));
        } finally {
            robot.interact(viewer::hide);
        }
    }
}
