package dev.runboard.remote;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorFixture;
import dev.runboard.process.Await;
import dev.runboard.testing.Poll;
import dev.runboard.ui.WindowFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * The window as the app runs it (a client of the supervisor, reading its records) with a session on
 * the test sshd: the Host column names the host with a connection badge, Facts says the host and that
 * the pid is the remote one, and an outage the CLI reports reads {@code disconnected} here too.
 */
@Tag("slow")
@ExtendWith(ApplicationExtension.class)
class RemoteWindowTest {
    private static final long WAIT_S = 60;
    @RegisterExtension
    static final SshdExtension SSHD = new SshdExtension();

    @TempDir
    Path dataDir;
    private WindowFixture fixture;

    @Start
    void start(Stage stage) {
        System.setProperty("runboard.ssh.config", SSHD.get().config.toString()); // the supervisor it starts reads it
        fixture = WindowFixture.supervised(stage, dataDir);
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            fixture.close();
        } finally {
            System.clearProperty("runboard.ssh.config");
            SSHD.get().forget(dataDir);
        }
    }

    @Test
    void theHostColumnAndFactsShowTheHostAndAnOutageReadsDisconnectedAsInTheCli(FxRobot robot) throws Exception {
        SupervisorFixture cli = fixture.supervisor();
        SupervisorFixture.Result started = cli.cli("start", "--host", "rb-remote", "--cwd", "/tmp", "--",
                "echo one; sleep 120");
        assertEquals(0, started.exit(), started.err());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> fixture.window().sessions().rows().size()) == 1);
        robot.interact(() -> robot.lookup(".session-table").queryAs(TableView.class).getSelectionModel().select(0));
        awaitBadge(robot, cli, "connected");
        assertTrue(fx(robot, () -> robot.lookup(".host-name").queryAll().stream()
                .anyMatch(n -> "rb-remote".equals(((Label) n).getText()))), "the Host column names it");
        assertEquals("Remote PID", label(robot, "#factPidName"), "its pid is a process on the host, not here");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> "rb-remote  (connected)".equals(label(robot, "#factHost")));

        SshCommand master = new SshSessions(dataDir, SSHD.get().config).link("rb-remote").ssh(); // the supervisor's
        SSHD.get().cutOff();
        try {
            master.exitMaster();
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> cli.cli("list").out().contains("[disconnected]"));
            awaitBadge(robot, cli, "disconnected");
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                    () -> "rb-remote  (disconnected)".equals(label(robot, "#factHost")));
        } finally {
            SSHD.get().reconnect();
        }
        awaitBadge(robot, cli, "connected");
    }

    /** Waits for the badge to read {@code word}; a failure says what the badge, the row and the CLI said instead. */
    private void awaitBadge(FxRobot robot, SupervisorFixture cli, String word) {
        Await.until(Duration.ofSeconds(WAIT_S), () -> "the badge to read " + word + ": it reads " + badge(robot) + ", the row's connection is "
                + fx(robot, () -> fixture.window().sessions().rows().get(0).snapshot().connection()) + ", list says:\n" + cli.cli("list").out(),
                () -> word.equals(badge(robot)));
    }

    /** The connection badge's word in the table, or null when none shows. */
    private static String badge(FxRobot robot) {
        return fx(robot, () -> robot.lookup(".connection-badge").queryAll().stream().filter(Node::isVisible)
                .map(n -> ((Label) n).getText()).findFirst().orElse(null));
    }

    private static String label(FxRobot robot, String id) {
        return fx(robot, () -> robot.lookup(id).queryAs(Label.class).getText());
    }
}
