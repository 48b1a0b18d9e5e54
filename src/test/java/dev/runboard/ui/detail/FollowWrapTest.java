package dev.runboard.ui.detail;

import static dev.runboard.ui.FxReads.fx;

import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.ansi.StyledLine;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ToggleButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** Follow with Wrap on: the end of the output stays in view as it grows, as it does unwrapped. */
@ExtendWith(ApplicationExtension.class)
class FollowWrapTest {
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
    void followKeepsTheLastWrappedLineInView(FxRobot robot) throws Exception {
        // 500 lines that each wrap over a few rows; more come once the test has turned Wrap on.
        String command = "long=$(printf 'word%.0s ' $(seq 1 40)); for i in $(seq 1 500); do echo \"line $i $long\"; done; "
                + "while [ ! -f go ]; do sleep 0.1; done; for i in $(seq 501 530); do echo \"line $i $long\"; done; sleep 60";
        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell(command).cwd(dataDir).build()));
        robot.interact(() -> window.model().selectedProperty().set(row));
        awaitLastLineInView(robot, "line 500 ");
        robot.clickOn("#wrapToggle");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> ((ToggleButton) robot.lookup("#wrapToggle").query()).isSelected()));
        awaitLastLineInView(robot, "line 500 ");
        Files.createFile(dataDir.resolve("go"));
        awaitLastLineInView(robot, "line 530 ");
        // And it stays there while the session runs on (the elapsed clock re-lays the window each second).
        SessionRow shown = row;
        java.time.Duration at = fx(robot, () -> shown.elapsedProperty().get());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> shown.elapsedProperty().get()).compareTo(at.plusSeconds(2)) >= 0);
        awaitLastLineInView(robot, "line 530 ");
    }

    @Test
    void aFindThatStopsMatchingGoesBackToFollowing(FxRobot robot) throws Exception {
        String command = "for i in $(seq 1 300); do echo \"line $i end\"; done; "
                + "while [ ! -f go ]; do sleep 0.1; done; for i in $(seq 301 330); do echo \"line $i end\"; done; sleep 60";
        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell(command).cwd(dataDir).build()));
        robot.interact(() -> window.model().selectedProperty().set(row));
        awaitLastLineInView(robot, "line 300 ");
        ToggleButton follow = robot.lookup("#followToggle").queryAs(ToggleButton.class);

        // "line 1" matches early lines: the tail jumps to the first and stops following, as a find should.
        robot.clickOn("#findField").write("line 1 ");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !follow.isSelected()));
        // Typed on to something that matches nothing: no jump to line 1, and following resumes.
        robot.write("zz");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> follow.isSelected()
                && "no matches".equals(robot.lookup("#matchLabel").queryAs(javafx.scene.control.Label.class).getText())));
        Files.createFile(dataDir.resolve("go"));
        awaitLastLineInView(robot, "line 330 ");
    }

    private static void awaitLastLineInView(FxRobot robot, String start) throws TimeoutException {
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> lastLineInView(robot, start)));
        } catch (TimeoutException e) {
            throw new AssertionError("the last line (" + start + "...) is not wholly in view: " + fx(robot, () -> describe(robot)), e);
        }
    }

    /** The list's last item starts with {@code start} and its cell lies wholly inside the list's viewport. */
    @SuppressWarnings("unchecked")
    private static boolean lastLineInView(FxRobot robot, String start) {
        ListView<StyledLine> list = (ListView<StyledLine>) robot.lookup("#outputList").query();
        int last = list.getItems().size() - 1;
        if (last < 0 || !list.getItems().get(last).plain().startsWith(start)) {
            return false;
        }
        Bounds view = viewport(list);
        for (Node n : list.lookupAll(".tail-line")) {
            ListCell<?> cell = (ListCell<?>) n;
            if (cell.isVisible() && cell.getIndex() == last && cell.getItem() != null) {
                Bounds b = cell.localToScene(cell.getLayoutBounds());
                return b.getHeight() > 0 && b.getMinY() >= view.getMinY() - 1 && b.getMaxY() <= view.getMaxY() + 1;
            }
        }
        return false;
    }

    /** Where the list shows its cells: inside its padding, above the horizontal scroll bar. */
    private static Bounds viewport(ListView<?> list) {
        Node clip = list.lookup(".clipped-container");
        return clip.localToScene(clip.getLayoutBounds());
    }

    @SuppressWarnings("unchecked")
    private static String describe(FxRobot robot) {
        ListView<StyledLine> list = (ListView<StyledLine>) robot.lookup("#outputList").query();
        StringBuilder sb = new StringBuilder("items " + list.getItems().size() + ", view "
                + viewport(list) + ", cells:");
        for (Node n : list.lookupAll(".tail-line")) {
            ListCell<?> cell = (ListCell<?>) n;
            if (cell.isVisible() && cell.getItem() != null) {
                sb.append(' ').append(cell.getIndex()).append('@').append(Math.round(cell.localToScene(0, 0).getY()));
            }
        }
        return sb.toString();
    }
}
