package dev.runboard.ui.workspace;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorFixture;
import dev.runboard.process.EngineConfig;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.SessionStatus;
import dev.runboard.stack.StackScenarios;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** Issue #17 in the window: the supervisor runs the stack; the table and the dependency view show it. */
@ExtendWith(ApplicationExtension.class)
class StackWindowTest {
    private static final long WAIT_S = 60;

    @TempDir
    Path dataDir;
    @TempDir
    Path project;

    private SupervisorFixture supervisor;
    private SupervisedSessions view;
    private WindowFixture fixture;

    @Start
    void start(Stage stage) {
        supervisor = new SupervisorFixture(dataDir);
        view = new SupervisedSessions(EngineConfig.forDataDir(dataDir), supervisor.client());
        view.load();
        view.follow(Duration.ofMillis(200));
        fixture = WindowFixture.open(stage, view);
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
        supervisor.close();
    }

    private SessionRow row(FxRobot robot, String name) {
        return fx(robot, () -> fixture.window().sessions().rows().stream()
                .filter(r -> r.snapshot() != null && name.equals(r.snapshot().stackName())).findFirst().orElse(null));
    }

    private List<String> stackLines(FxRobot robot) {
        return fx(robot, () -> robot.lookup("#stackList").queryAs(ListView.class).getItems().stream()
                .map(l -> ((StackViewModel.Line) l).text()).toList());
    }

    private List<String> statusTexts(FxRobot robot) {
        return fx(robot, () -> robot.lookup(".status-cell").queryAllAs(Labeled.class).stream()
                .map(Labeled::getText).filter(t -> t != null).toList());
    }

    @Test
    void theTableAndTheDependencyViewShowWhatWaitsForWhatAndWhy(FxRobot robot) throws Exception {
        int port = StackScenarios.freePort();
        // db opens its port only once the test says so: migrate's wait is on screen as long as the test looks.
        String yaml = StackScenarios.dbMigrateServer(port).replace("sleep 2;", "while [ ! -f go ]; do sleep 0.1; done;") + """
                  broken:
                    command: exit 3
                    shell: /bin/sh
                  after_broken:
                    command: echo never
                    shell: /bin/sh
                    depends_on: {broken: succeeded}
                    autostart: true
                """;
        Files.writeString(project.resolve("runboard.yaml"), yaml);
        FxReads.await(robot, () -> fixture.window().workspaces().open(project));

        // Opening starts the autostart commands through the supervisor, in order: migrate waits for db.
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> row(robot, "migrate") != null);
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> stackLines(robot).stream()
                    .anyMatch(l -> l.contains("migrate") && l.contains("pending") && l.endsWith("\u2014 waiting for db: ready")));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("stack view: " + stackLines(robot) + "; rows: " + fx(robot, () -> fixture.window().sessions()
                    .rows().stream().map(r -> r.snapshot().stackName() + "=" + r.status() + "/" + r.snapshot().reason()
                            + " " + r.snapshot().stackFile()).toList()) + " ws " + project
                    + "\nsupervisor: " + supervisor.cli("list").out());
        }
        Files.writeString(project.resolve("go"), "");
        List<String> lines = stackLines(robot);
        assertTrue(lines.get(0).startsWith("db "), "db waits for nothing: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("  \u2514 migrate")), "migrate under db: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("    \u2514 server")), "server under migrate: " + lines);

        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> {
            SessionRow server = row(robot, "server");
            return server != null && fx(robot, server::status) == SessionStatus.RUNNING;
        });
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row(robot, "after_broken")::status) == SessionStatus.SKIPPED);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> statusTexts(robot).contains("ready")
                && statusTexts(robot).contains("skipped") && statusTexts(robot).contains("completed"));
        // The reason is the tooltip a user sees with the pointer on the skipped row's status.
        Labeled skipped = fx(robot, () -> robot.lookup(".status-cell").queryAllAs(Labeled.class).stream()
                .filter(c -> "skipped".equals(c.getText())).findFirst().orElseThrow());
        robot.moveTo(skipped);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> skipped.getTooltip() != null
                && skipped.getTooltip().isShowing()));
        assertEquals("dependency broken will not succeed: failed (exit 3)", fx(robot, () -> skipped.getTooltip().getText()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> stackLines(robot).stream()
                .anyMatch(l -> l.startsWith("db ") && l.contains("ready")));

        robot.clickOn("#downButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row(robot, "server")::status) == SessionStatus.KILLED
                && fx(robot, row(robot, "db")::status) == SessionStatus.KILLED);
    }
}
