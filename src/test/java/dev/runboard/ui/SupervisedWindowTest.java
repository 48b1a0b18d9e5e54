package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.process.EngineConfig;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.Session;
import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.Json;
import dev.runboard.testing.Poll;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * The window as the app runs it: a client of the data dir's supervisor, beside the CLI and a
 * second window on the same data dir. All three show the same sessions, with CPU, memory and the
 * process tree, whoever started them; a kill from the window is carried out and recorded by the
 * supervisor.
 */
@Tag("slow")
@ExtendWith(ApplicationExtension.class)
class SupervisedWindowTest {
    private static final long WAIT_S = 30;

    @TempDir
    Path dataDir;
    /** The commands' own folder: the data dir holds only runboard's files. */
    @TempDir
    Path work;

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

    @Test
    void theWindowTheCliAndASecondWindowSeeTheSameSessionsAndTheSupervisorCarriesOutTheWindowsKill(FxRobot robot) throws Exception {
        String id = supervisor.start("--shell", "/bin/sh", "--", "sleep 60 & sleep 60; wait");

        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> fixture.window().sessions().find(id)) != null);
        SessionRow row = fx(robot, () -> fixture.window().sessions().find(id));
        // (Its first record may say "pending, starting": every start is made, then launched.)
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.RUNNING);
        // CPU and memory of a session the window did not start (the monitor samples once a second).
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> row.rssBytesProperty().get()) != null);
        assertTrue(fx(robot, () -> row.rssBytesProperty().get()) > 0);
        SessionInsight insight = fx(robot, () -> row.insightProperty().get());
        assertTrue(insight.tree().pids().size() >= 3, "the tree: wrapper, shell and two sleeps: " + insight.tree().pids());

        // A second window on the same data dir sees the same session with the same tree.
        try (SupervisedSessions second = new SupervisedSessions(EngineConfig.forDataDir(dataDir), supervisor.client())) {
            second.load();
            Session same = second.find(id).orElseThrow();
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> second.insight(same) != null
                    && second.insight(same).tree().pids().size() >= 3);
            assertEquals(insight.tree().pids().stream().sorted().toList(),
                    second.insight(same).tree().pids().stream().sorted().toList());
        }

        List<Long> tree = insight.tree().pids().stream().toList();
        robot.interact(() -> {
            TableView<?> table = robot.lookup(".session-table").queryAs(TableView.class);
            table.getSelectionModel().select(table.getItems().indexOf(row));
        });
        robot.clickOn("#killButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.KILLED);
        JsonNode shown = Json.mapper().readTree(supervisor.cli("show", id).out());
        assertEquals("killed", shown.path("status").asText(), "the supervisor recorded the window's kill");
        assertTrue(shown.path("kill_report").path("survivors").isEmpty());
        for (long p : tree) {
            assertTrue(ProcFs.gone(p), "process " + p + " of the killed tree is gone from /proc");
        }
    }

    @Test
    void theWindowsKillEndsEveryEscapeeAndWhatAnEndedSessionLeftBehind(FxRobot robot) throws Exception {
        try (var in = getClass().getResourceAsStream("/trees/escapees.sh")) {
            java.nio.file.Files.copy(in, work.resolve("escapees.sh"));
        }
        String id = supervisor.start("--cwd", work.toString(), "--grace", "300ms", "--shell", "/bin/sh", "--", "sh escapees.sh");
        List<Long> escapees = new java.util.ArrayList<>();
        for (String name : List.of("plain", "group", "session", "ghost", "orphan")) {
            escapees.add(dev.runboard.process.Await.pidFile(work.resolve("escapee-" + name + ".pid"), Duration.ofSeconds(WAIT_S)));
        }
        SessionRow row = awaitRow(robot, id);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.RUNNING);
        // Counted as running the moment its row says so (it began as "pending, starting"): the quit question reads this.
        assertEquals(1, (int) fx(robot, () -> fixture.window().sessions().runningCountProperty().get()));
        select(robot, row);
        robot.clickOn("#killButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.KILLED);
        for (long p : escapees) {
            Poll.waitFor(5, TimeUnit.SECONDS, () -> ProcFs.gone(p));
        }

        // A command that exits leaving a TERM-ignorer behind: completed, and its row keeps Kill for what is left.
        String lingering = supervisor.start("--cwd", work.toString(), "--grace", "300ms", "--shell", "/bin/sh", "--",
                "perl -e '$SIG{TERM} = \"IGNORE\"; sleep 600' & echo $! > left.pid; echo done");
        long left = dev.runboard.process.Await.pidFile(work.resolve("left.pid"), Duration.ofSeconds(WAIT_S));
        SessionRow ended = awaitRow(robot, lingering);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, ended::status) == SessionStatus.COMPLETED
                && fx(robot, ended::isLingering));
        select(robot, ended);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !robot.lookup("#killButton").query().isDisabled()));
        robot.clickOn("#killButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> ProcFs.gone(left));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> !fx(robot, ended::isLingering));
        assertEquals(SessionStatus.COMPLETED, fx(robot, ended::status), "a kill after the end does not change how it ended");
    }

    @Test
    void aWaitingSessionIsCancelledByTheWindowsKillAndByRemove(FxRobot robot) throws Exception {
        String blocker = supervisor.start("--cwd", work.toString(), "--shell", "/bin/sh", "--", "sleep 60");
        String first = supervisor.start("--after", blocker, "--cwd", work.toString(), "--shell", "/bin/sh", "--",
                "touch ran");
        String second = supervisor.start("--after", blocker, "--cwd", work.toString(), "--shell", "/bin/sh", "--",
                "touch ran");
        SessionRow waiting = awaitRow(robot, first);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, waiting::status) == SessionStatus.PENDING);
        select(robot, waiting);
        robot.clickOn("#killButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, waiting::status) == SessionStatus.KILLED);
        assertEquals("cancelled before it started", Json.mapper().readTree(supervisor.cli("show", first).out())
                .path("reason").asText());

        SessionRow other = awaitRow(robot, second);
        robot.interact(() -> fixture.window().model().removals().setWindow(javafx.util.Duration.seconds(1)));
        select(robot, other);
        robot.clickOn("#toolbarRemove");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> supervisor.cli("show", second).exit() != 0);
        assertEquals(0, supervisor.cli("kill", blocker).exit());
        assertTrue(!java.nio.file.Files.exists(work.resolve("ran")), "neither waiting command ever ran");
    }

    private SessionRow awaitRow(FxRobot robot, String id) throws Exception {
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> fixture.window().sessions().find(id)) != null);
        return fx(robot, () -> fixture.window().sessions().find(id));
    }

    private static void select(FxRobot robot, SessionRow row) {
        robot.interact(() -> {
            TableView<?> table = robot.lookup(".session-table").queryAs(TableView.class);
            table.getSelectionModel().select(table.getItems().indexOf(row));
        });
    }

    @Test
    void aSessionStartedInTheWindowIsTheSupervisorsAndTheCliListsIt(FxRobot robot) throws Exception {
        String id = FxReads.await(robot, () -> fixture.window().model().launch(dev.runboard.session.SessionSpec
                .shell("echo from the window; exit 5").shell(Path.of("/bin/sh")).cwd(dataDir).build())).id();
        assertEquals(5, supervisor.cli("wait", id).exit());
        JsonNode listed = Json.mapper().readTree(supervisor.cli("list", "--json").out());
        assertEquals(1, listed.size());
        assertEquals("failed", listed.get(0).path("status").asText());
        assertEquals("from the window\n", listed.get(0).path("output").asText());
        SessionRow row = fx(robot, () -> fixture.window().sessions().find(id));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.FAILED);
    }
}
