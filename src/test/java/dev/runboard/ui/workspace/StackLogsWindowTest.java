package dev.runboard.ui.workspace;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorFixture;
import dev.runboard.process.EngineConfig;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.SecretEnv;
import dev.runboard.session.SessionStatus;
import dev.runboard.stack.StackLog;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TabPane;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** Issue #45 in the window: the stack's Logs tab merges its commands' output; Facts mask secrets until clicked. */
@ExtendWith(ApplicationExtension.class)
class StackLogsWindowTest {
    private static final long WAIT_S = 60;

    @TempDir
    Path dataDir;
    @TempDir
    Path project;

    private SupervisorFixture supervisor;
    private WindowFixture fixture;

    @Start
    void start(Stage stage) {
        supervisor = new SupervisorFixture(dataDir);
        SupervisedSessions view = new SupervisedSessions(EngineConfig.forDataDir(dataDir), supervisor.client());
        view.load();
        view.follow(Duration.ofMillis(200));
        fixture = WindowFixture.open(stage, view);
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
        supervisor.close();
    }

    private List<String> logLines(FxRobot robot) {
        return fx(robot, () -> robot.lookup("#stackLogList").queryAs(ListView.class).getItems().stream()
                .map(l -> ((StackLogViewModel.Line) l).prefix() + ((StackLogViewModel.Line) l).text()).toList());
    }

    /** The Logs tab's rows as drawn: each cell's prefix node (with its style) and its text. */
    private List<ListCell<?>> shownCells(FxRobot robot) {
        return fx(robot, () -> {
            List<ListCell<?>> cells = new ArrayList<>();
            for (javafx.scene.Node n : robot.lookup("#stackLogList").lookup(".list-cell").queryAll()) {
                if (n instanceof ListCell<?> c && c.getGraphic() instanceof Text && c.isVisible()) {
                    cells.add(c);
                }
            }
            return cells;
        });
    }

    private static void select(FxRobot robot, String paneId, String tabId) {
        robot.interact(() -> {
            for (javafx.scene.Node n : robot.lookup(".tab-pane").queryAll()) {
                TabPane pane = (TabPane) n;
                pane.getTabs().stream().filter(t -> tabId.equals(t.getId())).findFirst()
                        .ifPresent(t -> pane.getSelectionModel().select(t));
            }
        });
    }

    @Test
    void theLogsTabMergesTheStackAndFollowsItsTailAndFactsMaskSecretsUntilClicked(FxRobot robot) throws Exception {
        Files.writeString(project.resolve(".env"), "# the database\nDB_PASSWORD='hunter2 secret'\n");
        Files.writeString(project.resolve("runboard.yaml"), """
                environment:
                  GREETING: hello
                env_file: .env
                commands:
                  api:
                    command: for i in $(seq 1 20); do echo api-$i; sleep 0.05; done; echo "$DB_PASSWORD" > seen.txt
                    shell: /bin/sh
                    autostart: true
                  worker:
                    command: for i in $(seq 1 20); do echo worker-$i; sleep 0.05; done
                    shell: /bin/sh
                    autostart: true
                    depends_on: {api: started}
                """);
        FxReads.await(robot, () -> fixture.window().workspaces().open(project));
        select(robot, "stackTabs", "stackLogsTab");

        // Every line of both commands, once, each after its command's name padded to the widest.
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> logLines(robot).size() >= 40
                    && logLines(robot).contains("api    | api-20") && logLines(robot).contains("worker | worker-20"));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("logs tab: " + logLines(robot) + "\nsupervisor: " + supervisor.cli("list").out());
        }
        List<String> lines = logLines(robot);
        assertEquals(40, lines.size(), "each line once: " + lines);
        assertEquals(40, new java.util.HashSet<>(lines).size(), lines.toString());
        List<String> api = lines.stream().filter(l -> l.startsWith("api ")).toList();
        for (int i = 1; i <= 20; i++) {
            assertEquals("api    | api-" + i, api.get(i - 1), "api's lines in their order: " + api);
        }

        // It follows the tail: the newest line is on screen, the first has scrolled away; names in their colours.
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> shownCells(robot).stream()
                    .anyMatch(f -> f.getText().equals(lastText(lines))));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("shown: " + fx(robot, () -> shownCells(robot).stream()
                    .map(f -> f.getText()).toList()) + "; list: " + fx(robot, () -> {
                        ListView<?> l = robot.lookup("#stackLogList").queryAs(ListView.class);
                        return l.getHeight() + "x" + l.getWidth() + " visible " + l.isVisible() + " in scene " + (l.getScene() != null)
                                + " cells " + robot.lookup("#stackLogList").lookup(".list-cell").queryAll().size();
                    }));
        }
        assertFalse(shownCells(robot).stream().anyMatch(f -> f.getText().equals("api-1")),
                "the first line scrolled away");
        Text prefix = (Text) shownCells(robot).get(0).getGraphic();
        String name = prefix.getText().split(" ")[0];
        assertTrue(prefix.getStyleClass().contains("ws-log-colour-" + StackLog.colourOf(name)), prefix.getStyleClass().toString());

        // Facts show the env_file's value masked, the file-wide environment's plainly; a click shows the secret.
        SessionRow row = fx(robot, () -> fixture.window().sessions().rows().stream()
                .filter(r -> "api".equals(r.snapshot().stackName())).findFirst().orElseThrow());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.COMPLETED);
        assertEquals("hunter2 secret\n", Files.readString(project.resolve("seen.txt")), "the command got the value");
        robot.interact(() -> fixture.window().model().selectedProperty().set(row));
        select(robot, "detailTabs", "factsTab");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup("#factEnv").queryAs(Label.class)
                .getText()).contains("DB_PASSWORD=" + SecretEnv.MASK));
        String env = fx(robot, () -> robot.lookup("#factEnv").queryAs(Label.class).getText());
        assertFalse(env.contains("hunter2"), env);
        assertTrue(env.contains("GREETING=hello"), env);
        robot.clickOn("#factEnv");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup("#factEnv").queryAs(Label.class)
                .getText()).contains("DB_PASSWORD=hunter2 secret"));
    }

    private static String lastText(List<String> lines) {
        String last = lines.get(lines.size() - 1);
        return last.substring(last.indexOf("| ") + 2);
    }
}
