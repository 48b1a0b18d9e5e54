package dev.runboard.ui.viewer;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.artifact.ViewerLine;
import dev.runboard.testing.Poll;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.RecordingDesktop;
import dev.runboard.ui.common.Theme;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
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

/** The viewer on a generated 60 MB log with colours, a 10 MB line and rare ERROR lines. */
@ExtendWith(ApplicationExtension.class)
class ArtifactViewerTest {
    private static final long WAIT_S = 30;
    private static final int LINES = 600_000;
    private static final int LONG_LINE = 300_000; // 1-based number of the 10 MB line
    @TempDir
    static Path dir;
    static Path log;

    private Stage viewer;

    @BeforeAll
    static void writeLog() throws Exception {
        log = dir.resolve("big.log");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(log), 1 << 20)) {
            for (int i = 1; i <= LINES; i++) {
                String line;
                if (i == LONG_LINE) {
                    line = "L".repeat(10 << 20);
                } else if (i % 5000 == 0) {
                    line = "\u001B[31mERROR\u001B[0m code " + i + " in step " + (i / 7);
                } else {
                    line = String.format("%07d info step %d of the \u001B[32mbuild\u001B[0m: compiling module-%d ok", i, i, i % 97);
                }
                out.write(line.getBytes(StandardCharsets.UTF_8));
                out.write('\n');
            }
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
    void firstPageEndGoToLineSearchAndTheCutMarker(FxRobot robot) throws Exception {
        ListView<ViewerLine> list = list(robot);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !list.getItems().isEmpty()));
        assertTrue(fx(robot, () -> list.getItems().get(0).text()).startsWith("0000001 info step 1 of the \u001B[32mbuild"));
        assertEquals("0000001 info step 1 of the build: compiling module-1 ok", shownText(robot, 0), "ANSI escapes are rendered, not shown");

        robot.clickOn("#viewerEnd");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> last(list).text().contains("ERROR")
                && last(list).text().endsWith("code " + LINES + " in step " + LINES / 7)));

        // Go to a line: needs the index; the status bar says when it is done.
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup("#viewerInfo").queryAs(Label.class).getText())
                .equals(String.format("%,d lines \u00B7 %s", LINES, dev.runboard.session.Sizes.format(Files.size(log)))));
        robot.interact(() -> robot.lookup("#viewerGoto").queryAs(TextField.class).setText("123456"));
        robot.clickOn("#viewerGoto").type(KeyCode.ENTER);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> {
            ViewerLine s = list.getSelectionModel().getSelectedItem();
            return s != null && s.number() == 123_455 && s.text().startsWith("0123456 info");
        }));

        // Regex search over the whole file: count, first match at or after the shown page, highlighted.
        robot.interact(() -> robot.lookup("#viewerFind").queryAs(TextField.class).setText("ERROR.* code \\d+0000 "));
        robot.clickOn("#viewerFind").type(KeyCode.ENTER);
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> matches(robot).endsWith(" of 59")));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("matches label: " + fx(robot, () -> matches(robot)), e);
        }
        assertEquals("13 of 59", matches(robot)); // 130000 is the first 10000-multiple after line 123456; line 300000 is the long line
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> {
            ViewerLine s = list.getSelectionModel().getSelectedItem();
            return s != null && s.number() == 129_999;
        }));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot,
                () -> String.join("", texts(robot, ".find-current")).equals("ERROR code 130000 ")));
        robot.clickOn("#viewerFind").type(KeyCode.ENTER);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> matches(robot).equals("14 of 59")));

        // The 10 MiB line is cut, with a marker saying how much is not shown.
        robot.interact(() -> robot.lookup("#viewerGoto").queryAs(TextField.class).setText(String.valueOf(LONG_LINE)));
        robot.clickOn("#viewerGoto").type(KeyCode.ENTER);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot,
                () -> texts(robot, ".line-cut").stream().anyMatch(t -> t.contains("line cut here: 10 MiB more not shown"))));
    }

    @Test
    void aBadRegexSaysSoInsteadOfSearching(FxRobot robot) throws Exception {
        ListView<ViewerLine> list = list(robot);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !list.getItems().isEmpty()));
        robot.interact(() -> robot.lookup("#viewerFind").queryAs(TextField.class).setText("(unclosed"));
        robot.clickOn("#viewerFind").type(KeyCode.ENTER);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> matches(robot).startsWith("bad regex")));
    }

    private static ListView<ViewerLine> list(FxRobot robot) {
        @SuppressWarnings("unchecked")
        ListView<ViewerLine> l = (ListView<ViewerLine>) robot.lookup("#viewerList").query();
        return l;
    }

    private static ViewerLine last(ListView<ViewerLine> list) {
        List<ViewerLine> items = list.getItems();
        return items.get(items.size() - 1);
    }

    private static String matches(FxRobot robot) {
        return robot.lookup("#viewerMatches").queryAs(Label.class).getText();
    }

    private static List<String> texts(FxRobot robot, String styleClass) {
        return robot.lookup("#viewerList").lookup(styleClass).queryAll().stream()
                .map(n -> ((Text) n).getText()).toList();
    }

    /** The text the first visible cell renders (its Text runs joined). */
    private static String shownText(FxRobot robot, int row) {
        return fx(robot, () -> robot.lookup("#viewerList .viewer-line").queryAll().stream()
                .filter(n -> ((javafx.scene.control.ListCell<?>) n).getIndex() == row)
                .findFirst()
                .map(n -> ((javafx.scene.control.ListCell<?>) n).lookupAll(".ansi-text").stream()
                        .map(t -> ((Text) t).getText()).reduce("", String::concat))
                .orElse(""));
    }


    @SuppressWarnings("unused")
    private static boolean visible(Node n) {
        return n.isVisible();
    }
}
