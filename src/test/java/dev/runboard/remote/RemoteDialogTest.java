package dev.runboard.remote;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.EngineFixture;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.ClippedControls;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
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
import org.testfx.util.WaitForAsyncUtils;

/**
 * The New session dialog with a host: it waits for the host's answer. A host that cannot be reached
 * keeps the form open with the CLI's one line beside the host field and nothing started; a host that
 * answers closes it, and the session runs there.
 */
@Tag("slow")
@ExtendWith(ApplicationExtension.class)
class RemoteDialogTest {
    private static final long WAIT_S = 60;
    @RegisterExtension
    static final SshdExtension SSHD = new SshdExtension();

    @TempDir
    Path dataDir;
    private WindowFixture fixture;
    private SessionEngine engine;
    private SshSessions remote;

    @Start
    void start(Stage stage) throws Exception {
        fixture = WindowFixture.open(stage, dataDir);
        engine = fixture.engine();
        remote = new SshSessions(dataDir, SSHD.get().config);
        engine.useRemote(remote);
    }

    @AfterEach
    void tearDown() throws Exception {
        engine.killAll(Duration.ZERO);
        for (Session s : engine.sessions()) {
            EngineFixture.assertNoneLeft(s, "processes of " + s.id() + " left behind on the remote");
        }
        fixture.close();
        remote.dropConnection("rb-remote");
        SSHD.get().forget(dataDir);
    }

    /** What the New session dialog says of its host, and whether it can launch (for a failure's message). */
    private static String dialogState(FxRobot robot) {
        return fx(robot, () -> {
            var button = robot.lookup("#launchButton").tryQuery();
            if (button.isEmpty()) {
                return "no dialog";
            }
            String status = robot.lookup("#hostStatus").tryQuery().map(n -> ((Label) n).isVisible() ? ((Label) n).getText() : "").orElse("?");
            String error = robot.lookup("#hostError").tryQuery().map(n -> ((Label) n).isVisible() ? ((Label) n).getText() : "").orElse("?");
            return "host status '" + status + "', host error '" + error + "', Launch " + (button.get().isDisabled() ? "disabled" : "enabled");
        });
    }

    @Test
    void anUnreachableHostIsSaidInTheDialogAndAHostThatAnswersClosesIt(FxRobot robot) throws Exception {
        fixture.toSmallestSize(robot);
        robot.clickOn("#newButton");
        robot.interact(() -> {
            robot.lookup("#commandField").queryAs(TextField.class).setText("sleep 30");
            robot.lookup("#cwdField").queryAs(TextField.class).setText("/tmp");
            robot.lookup("#hostField").queryAs(ComboBox.class).getEditor().setText("rb-unreachable");
        });
        robot.clickOn("#launchButton");

        Label hostError = robot.lookup("#hostError").queryAs(Label.class);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, hostError::isVisible));
        String said = fx(robot, hostError::getText);
        assertTrue(said.contains("rb-unreachable is unreachable"), said);
        assertEquals(1, said.strip().lines().count(), "one line: " + said);
        // Read whole beside the field (issue 47: the host field's message was cut to "..."), within the dialog.
        // (The dialog may still be growing to its content: ScreenFit follows its size until it settles.)
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> said.equals(fx(robot, () -> ClippedControls.drawnText(hostError))));
        } catch (java.util.concurrent.TimeoutException e) {
            assertEquals(said, fx(robot, () -> ClippedControls.drawnText(hostError)), "the message as drawn");
        }
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(List.of(), fx(robot, () -> ClippedControls.under(hostError)), "cut short beside the host field");
        double[] bottomAndHeight = fx(robot, () -> new double[] {hostError.localToScene(hostError.getLayoutBounds()).getMaxY(),
                hostError.getScene().getHeight()});
        assertTrue(bottomAndHeight[0] <= bottomAndHeight[1] + 0.5, "the message ends at y " + bottomAndHeight[0]
                + ", the dialog at " + bottomAndHeight[1]);
        assertTrue(robot.lookup("#launchButton").tryQuery().isPresent(), "the dialog stays open, still filled in");
        assertFalse(fx(robot, () -> robot.lookup("#launchButton").query().isDisabled()), "and can launch again");
        assertTrue(engine.sessions().isEmpty(), "nothing was started");
        assertTrue(fx(robot, () -> fixture.window().sessions().rows().isEmpty()));

        // Corrected to a host that answers: the dialog closes once the session runs there.
        robot.interact(() -> robot.lookup("#hostField").queryAs(ComboBox.class).getEditor().setText("rb-remote"));
        WindowFixture.pressAfterChange(robot, "#launchButton");
        // If the dialog stays open, the failure says what it shows.
        dev.runboard.process.Await.until(Duration.ofSeconds(WAIT_S), () -> "the dialog to close once the session runs on rb-remote;"
                + " it shows " + dialogState(robot) + "; sessions: " + engine.sessions().stream().map(s -> s.id() + " " + s.status()).toList(),
                () -> robot.lookup("#launchButton").tryQuery().isEmpty());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> fixture.window().sessions().rows().size()) == 1);
        SessionRow row = fx(robot, () -> fixture.window().sessions().rows().get(0));
        assertEquals(SessionStatus.RUNNING, fx(robot, row::status));
        assertEquals("rb-remote", fx(robot, () -> row.spec().host()));
    }
}
