package dev.runboard.ui.viewer;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.artifact.TimeIndex;
import dev.runboard.artifact.TimeIndexWriter;
import dev.runboard.testing.Poll;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.RecordingDesktop;
import dev.runboard.ui.common.Theme;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The viewer's time gutter: off by default, and with Times on, each line shows when it was written. */
@ExtendWith(ApplicationExtension.class)
class ViewerTimesTest {
    /** 2026-12-01 10:00:00.000 UTC and a second and a half later. */
    private static final long FIRST = 1_796_119_200_000L;
    private static final long SECOND = FIRST + 1_500;
    @TempDir
    static Path dir;
    static Path log;
    private Stage viewer;

    /** Two lines written, then a third 1.5 s later, as the owner's sampler records them. */
    @BeforeAll
    static void writeLogWithIndex() throws Exception {
        log = dir.resolve("run.log");
        Files.writeString(log, "compiling\ntesting\n", StandardCharsets.UTF_8);
        try (TimeIndexWriter w = new TimeIndexWriter(log)) {
            w.sample(FIRST);
            Files.writeString(log, "done\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            w.sample(SECOND);
        }
    }

    @Start
    void start(Stage stage) {
        javafx.application.Platform.setImplicitExit(false);
        viewer = new ArtifactViewer(new Theme(false), new RecordingDesktop(), new FxUiTasks()).open(null, log);
    }

    @AfterEach
    void close() throws Exception {
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> viewer.hide());
    }

    @Test
    void theTimesToggleShowsWhenEachLineWasWritten(FxRobot robot) throws Exception {
        Poll.waitFor(30, TimeUnit.SECONDS, () -> shownTimes(robot).size() == 0 && rows(robot) == 3);
        robot.clickOn("#viewerTimes");
        List<String> want = List.of(TimeIndex.stamp(FIRST), TimeIndex.stamp(FIRST), TimeIndex.stamp(SECOND));
        Poll.waitFor(30, TimeUnit.SECONDS, () -> shownTimes(robot).equals(want));
        assertEquals(want, shownTimes(robot));
        robot.clickOn("#viewerTimes");
        Poll.waitFor(30, TimeUnit.SECONDS, () -> shownTimes(robot).isEmpty());
        assertEquals(false, fx(robot, () -> robot.lookup("#viewerTimes").queryAs(ToggleButton.class).isSelected()));
    }

    private static int rows(FxRobot robot) {
        return fx(robot, () -> (int) robot.lookup("#viewerList .viewer-line").queryAll().stream()
                .filter(c -> ((javafx.scene.control.ListCell<?>) c).getItem() != null).count());
    }

    /** The visible time gutter labels, top to bottom. */
    private static List<String> shownTimes(FxRobot robot) {
        return fx(robot, () -> robot.lookup("#viewerList .viewer-line").queryAll().stream()
                .filter(c -> ((javafx.scene.control.ListCell<?>) c).getItem() != null)
                .sorted(java.util.Comparator.comparingInt(c -> ((javafx.scene.control.ListCell<?>) c).getIndex()))
                .flatMap(c -> c.lookupAll(".line-time").stream())
                .filter(Node::isVisible)
                .map(n -> ((Label) n).getText())
                .toList());
    }
}
