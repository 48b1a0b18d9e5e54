package dev.runboard.ui.detail;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Labeled;
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

/** A progress bar redrawn with carriage returns shows its last state, in the tail and in Last line. */
@ExtendWith(ApplicationExtension.class)
class CarriageReturnTest {
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
    void aProgressBarShowsItsLastStateNotStackedLines(FxRobot robot) throws Exception {
        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell(
                "echo start; printf 'abcdef\\rXY\\n'; "
                        + "printf '[#         ] 10%%\\r'; printf '[#####     ] 50%%\\r'; printf '[##########] 100%%\\n'")
                .cwd(dataDir).build()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.COMPLETED);
        robot.interact(() -> window.model().selectedProperty().set(row));
        List<String> expected = List.of("start", "XYcdef", "[##########] 100%");
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> tailLines(robot).equals(expected));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the tail shows " + tailLines(robot), e);
        }
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> lastLineCells(robot).contains("[##########] 100%"));
        assertEquals(List.of("[##########] 100%"), lastLineCells(robot).stream().filter(s -> s.contains("%")).toList(),
                "Last line shows only the bar's final state");
    }

    /** The shown lines of the tail as a person reads them, top to bottom. */
    private static List<String> tailLines(FxRobot robot) {
        return fx(robot, () -> robot.lookup("#outputList .tail-line").queryAll().stream()
                .map(n -> (ListCell<?>) n)
                .filter(c -> c.getItem() != null && c.isVisible())
                .sorted(Comparator.comparingInt(IndexedCell::getIndex))
                .map(c -> c.lookupAll(".ansi-text").stream().map(t -> ((Text) t).getText()).reduce("", String::concat))
                .toList());
    }

    private static List<String> lastLineCells(FxRobot robot) {
        return fx(robot, () -> robot.lookup(".last-line-cell").queryAll().stream()
                .filter(n -> n instanceof Labeled l && l.getText() != null && !l.getText().isEmpty())
                .map(n -> ((Labeled) n).getText())
                .toList());
    }
}
