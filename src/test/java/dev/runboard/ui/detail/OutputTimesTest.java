package dev.runboard.ui.detail;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.ListCell;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The output tail's time gutter: with Times on, each line shows when it was written. */
@ExtendWith(ApplicationExtension.class)
class OutputTimesTest {
    private static final long WAIT_S = 30;
    @TempDir
    Path dataDir;
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
    void theTimesToggleShowsWhenEachLineWasWritten(FxRobot robot) throws Exception {
        SessionRow row = FxReads.await(robot, () -> window.model().launch(
                SessionSpec.shell("echo first; sleep 1; echo second").cwd(dataDir).build()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.COMPLETED);
        robot.interact(() -> window.model().selectedProperty().set(row));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> stamps(robot).isEmpty() && lines(robot) == 2);
        robot.clickOn("#timesToggle");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> stamps(robot).size() == 2
                && stamps(robot).stream().allMatch(s -> s.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d ")));
        List<String> stamps = stamps(robot);
        long gap = LocalTime.parse(stamps.get(0).strip()).until(LocalTime.parse(stamps.get(1).strip()), ChronoUnit.MILLIS);
        assertTrue(gap >= 500 && gap < 5_000, "the second line came a second later: " + stamps);
        robot.clickOn("#timesToggle");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> stamps(robot).isEmpty());
    }

    private static int lines(FxRobot robot) {
        return fx(robot, () -> (int) robot.lookup("#outputList .tail-line").queryAll().stream()
                .filter(c -> ((ListCell<?>) c).getItem() != null).count());
    }

    /** The gutter texts of the shown lines, top to bottom. */
    private static List<String> stamps(FxRobot robot) {
        return fx(robot, () -> robot.lookup("#outputList .tail-line").queryAll().stream()
                .filter(c -> ((ListCell<?>) c).getItem() != null)
                .sorted(java.util.Comparator.comparingInt(c -> ((ListCell<?>) c).getIndex()))
                .flatMap(c -> c.lookupAll(".line-time").stream())
                .map(n -> ((Text) n).getText())
                .toList());
    }
}
