package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Poll;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * The detail pane joins the window after its first frame (DetailAfterFirstFrame); a row selected
 * before that frame, in the same FX runnable that opened the window, still shows in it at once.
 */
@ExtendWith(ApplicationExtension.class)
class DetailFirstFrameTest {
    private static final long WAIT_S = 20;

    @TempDir
    static Path dataDir;

    private WindowFixture fixture;
    private MainWindow window;
    private SessionRow picked;
    private boolean attachedAtOnce;

    @Start
    void start(Stage stage) throws Exception {
        try (SessionEngine earlier = SessionEngine.forDataDir(dataDir)) {
            CompletableFuture<Object> ended = new CompletableFuture<>();
            earlier.start(SessionSpec.shell("echo picked early").cwd(dataDir).build()).addListener(ended::complete);
            ended.get(WAIT_S, TimeUnit.SECONDS);
        }
        SessionEngine engine = SessionEngine.forDataDir(dataDir);
        engine.loadHistory();
        fixture = WindowFixture.open(stage, engine);
        window = fixture.window();
        // Before any pulse: the window is not drawn yet, its detail pane still stands aside.
        picked = window.sessions().rows().get(0);
        window.model().selectedProperty().set(picked);
        attachedAtOnce = window.controller().detailRoot().getScene() == stage.getScene();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void aRowSelectedBeforeTheFirstFrameShowsInTheDetailPane(FxRobot robot) throws Exception {
        assertTrue(attachedAtOnce, "selecting a row brings the detail pane in at once, not at the next frame");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> detailText("echo picked early")));
        assertSame(window.stage().getScene(), fx(robot, () -> window.controller().detailRoot().getScene()),
                "the real detail pane is in the window");
        List<String> tabs = fx(robot, () -> window.controller().sideTabs().getTabs().stream().map(Tab::getText).toList());
        assertTrue(tabs.contains("History"), "the History tab joined the pane while it stood aside: " + tabs);
        assertFalse(fx(robot, this::standInShown), "no stand-in left in the window");
    }

    @Test
    void clearingTheSelectionShowsThePanesOwnEmptyText(FxRobot robot) throws Exception {
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> detailText("echo picked early")));
        fx(robot, () -> {
            window.model().selectedProperty().set(null);
            return null;
        });
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> {
            Node empty = window.controller().detailRoot().lookup(".placeholder-label");
            return empty instanceof Label l && l.isVisible() && l.getText().equals(DetailAfterFirstFrame.EMPTY_TEXT);
        }));
        assertEquals(1, fx(robot, () -> window.stage().getScene().getRoot().lookupAll(".placeholder-label").stream()
                .filter(n -> n instanceof Label l && l.getText().equals(DetailAfterFirstFrame.EMPTY_TEXT)).count()),
                "one 'Select a session' text: the pane's own");
    }

    private boolean detailText(String command) {
        return window.controller().detailRoot().lookupAll(".detail-command").stream()
                .anyMatch(n -> n instanceof Label l && command.equals(l.getText()) && l.isVisible());
    }

    private boolean standInShown() {
        return window.controller().mainSplit().getItems().stream()
                .noneMatch(n -> n == window.controller().detailRoot());
    }
}
