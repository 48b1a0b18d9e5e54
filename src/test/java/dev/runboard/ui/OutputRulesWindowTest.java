package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.artifact.ViewerLine;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.WatchSpec;
import dev.runboard.testing.Poll;
import dev.runboard.ui.ansi.StyledLine;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** HIGHLIGHT rules mark tail lines; NOTIFY rules reach the window as a toast through the poller. */
@ExtendWith(ApplicationExtension.class)
class OutputRulesWindowTest {
    private static final long WAIT_S = 20;
    private static final PseudoClass RULE_HIGHLIGHT = PseudoClass.getPseudoClass("rule-highlight");

    @TempDir
    Path dataDir;
    @TempDir
    Path workDir;

    private WindowFixture fixture;
    private SessionEngine engine;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir);
        engine = fixture.engine();
        window = fixture.window();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void highlightRuleMarksMatchingTailLinesIgnoringAnsi(FxRobot robot) throws Exception {
        WatchSpec watch = WatchSpec.NONE.withRules(List.of(new OutputRule("^ERROR", OutputRule.Action.HIGHLIGHT)));
        SessionRow row = launch(robot, SessionSpec.shell("printf 'ok line\\n\\033[31mERROR\\033[0m disk\\nnot an ERROR\\n'")
                .cwd(workDir).watch(watch).build());
        robot.interact(() -> window.model().selectedProperty().set(row));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> highlighted(robot).size()) == 3);

        Map<String, Boolean> marks = fx(robot, () -> highlighted(robot));
        assertTrue(marks.get("ERROR disk"), "the coloured ERROR line is highlighted: " + marks);
        assertFalse(marks.get("ok line"), marks.toString());
        assertFalse(marks.get("not an ERROR"), "the rule is anchored: " + marks);
    }

    @Test
    void theArtifactViewerMarksTheSameLines(FxRobot robot) throws Exception {
        WatchSpec watch = WatchSpec.NONE.withRules(List.of(new OutputRule("ERROR", OutputRule.Action.HIGHLIGHT)));
        SessionRow row = launch(robot, SessionSpec.shell("seq 1 20000; echo 'ERROR at the end'")
                .cwd(workDir).watch(watch).build());
        robot.interact(() -> window.model().selectedProperty().set(row));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> robot.lookup("#openArtifactLink").tryQuery().map(Node::isVisible).orElse(false)));
        robot.clickOn("#openArtifactLink");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !viewerMarks(robot).isEmpty()));
        robot.clickOn("#viewerEnd");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> Boolean.TRUE.equals(viewerMarks(robot).get("ERROR at the end"))));
        assertEquals(Boolean.FALSE, fx(robot, () -> viewerMarks(robot).get("20000")));
    }

    @Test
    void notifyRuleShowsOneToastForAFloodOfMatches(FxRobot robot) throws Exception {
        WatchSpec watch = WatchSpec.NONE.withRules(List.of(new OutputRule("disk almost full", OutputRule.Action.NOTIFY)));
        launch(robot, SessionSpec.shell("for i in $(seq 1 200); do echo \"disk almost full $i\"; done; sleep 30")
                .cwd(workDir).watch(watch).build());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> toastTexts(robot).stream()
                .anyMatch(t -> t.contains("/disk almost full/ matched: disk almost full"))));
        // Two more engine passes (one a second) bring no second toast for the same rule.
        java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
        robot.interact(() -> window.sessions().poller().addEventHandler(
                javafx.concurrent.WorkerStateEvent.WORKER_STATE_SUCCEEDED, e -> polls.incrementAndGet()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> polls.get() > 10);
        long rule = fx(robot, () -> toastTexts(robot).stream().filter(t -> t.contains("matched:")).count());
        assertEquals(1, rule, "one toast per rule within the quiet period");
    }

    private static Map<String, Boolean> highlighted(FxRobot robot) {
        return robot.lookup(".tail-line").queryAll().stream()
                .map(n -> (ListCell<?>) n)
                .filter(c -> !c.isEmpty() && c.getItem() instanceof StyledLine)
                .collect(Collectors.toMap(c -> ((StyledLine) c.getItem()).plain(),
                        c -> c.getPseudoClassStates().contains(RULE_HIGHLIGHT), (a, b) -> a));
    }

    private static Map<String, Boolean> viewerMarks(FxRobot robot) {
        return robot.lookup(".viewer-line").queryAll().stream()
                .map(n -> (ListCell<?>) n)
                .filter(c -> !c.isEmpty() && c.getItem() instanceof ViewerLine)
                .collect(Collectors.toMap(c -> ((ViewerLine) c.getItem()).text(),
                        c -> c.getPseudoClassStates().contains(RULE_HIGHLIGHT), (a, b) -> a));
    }

    private static List<String> toastTexts(FxRobot robot) {
        return robot.lookup(".toast .toast-body").queryAll().stream()
                .map(n -> ((Label) n).getText()).toList();
    }

    private SessionRow launch(FxRobot robot, SessionSpec spec) {
        return FxReads.await(robot, () -> window.model().launch(spec));
    }
}
