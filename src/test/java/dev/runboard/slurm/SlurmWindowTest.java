package dev.runboard.slurm;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
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

/**
 * The window with a Slurm session, as the app runs it (a client of the supervisor, against the
 * one-node cluster): the New session dialog submits a job; Slurm's refusal is said beside the Slurm
 * choice with nothing started; a held job's row reads pending with Slurm's reason, the Slurm column
 * shows its job, and Facts its job, partition and reason.
 */
@Tag("slow")
@ExtendWith(ApplicationExtension.class)
class SlurmWindowTest {
    private static final long WAIT_S = 90;
    @RegisterExtension
    static final SlurmCluster SLURM = new SlurmCluster();

    @TempDir
    Path dataDir;
    @TempDir
    Path workDir;
    private WindowFixture fixture;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.supervised(stage, dataDir);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (String id : new dev.runboard.store.SessionStore(dataDir).ids()) {
            fixture.supervisor().cli("kill", id);
        }
        fixture.close();
    }

    @Test
    void theDialogSubmitsAJobWhoseRowIsPendingWithSlurmsReasonAndItsJobInTheColumnAndFacts(FxRobot robot) throws Exception {
        robot.clickOn("#newButton");
        robot.interact(() -> {
            robot.lookup("#commandField").queryAs(TextField.class).setText("echo never");
            robot.lookup("#cwdField").queryAs(TextField.class).setText(workDir.toString());
            robot.lookup("#slurmCheck").queryAs(CheckBox.class).setSelected(true);
            robot.lookup("#sbatchField").queryAs(TextField.class).setText("--partition=nosuch");
        });
        robot.clickOn("#launchButton");
        Label slurmError = robot.lookup("#slurmError").queryAs(Label.class);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, slurmError::isVisible));
        String said = fx(robot, slurmError::getText);
        assertTrue(said.contains("sbatch refused the job") && said.contains("nosuch"), said);
        assertEquals(1, said.strip().lines().count(), "one line: " + said);
        assertTrue(fx(robot, () -> fixture.window().sessions().rows().isEmpty()), "nothing was started");

        robot.interact(() -> robot.lookup("#sbatchField").queryAs(TextField.class).setText("--begin=now+3600"));
        WindowFixture.pressAfterChange(robot, "#launchButton");
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> robot.lookup("#launchButton").tryQuery().isEmpty());
        } catch (java.util.concurrent.TimeoutException e) {
            // Say what the dialog and the supervisor said then (twice, with a mouse click here, the click had missed).
            throw new AssertionError("the dialog did not close: its Slurm line \"" + fx(robot, slurmError::getText)
                    + "\"; the supervisor's log ends: " + fixture.supervisor().logTail(), e);
        }
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> fixture.window().sessions().rows().size()) == 1);
        SessionRow row = fx(robot, () -> fixture.window().sessions().rows().get(0));
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.PENDING
                    && fx(robot, () -> String.valueOf(row.snapshot().reason())).contains("BeginTime"));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the row: " + fx(robot, () -> row.status() + " " + row.snapshot().reason() + " "
                    + row.snapshot().slurm()) + "; the record: " + java.nio.file.Files.readString(dataDir.resolve("sessions")
                    .resolve(row.id()).resolve("session.json")), e);
        }
        String job = fx(robot, () -> row.snapshot().slurm().jobId());

        // The Slurm column joined the table with the first Slurm session.
        @SuppressWarnings("unchecked")
        TableView<SessionRow> table = robot.lookup("#sessionTable").queryAs(TableView.class);
        assertTrue(fx(robot, () -> table.getColumns().stream().anyMatch(c -> "slurmColumn".equals(c.getId()))));
        assertTrue(robot.lookup(".slurm-cell").queryAll().stream()
                .anyMatch(n -> fx(robot, () -> (job + " · pending").equals(((javafx.scene.control.Labeled) n).getText()))));

        robot.interact(() -> table.getSelectionModel().select(row));
        Label fact = robot.lookup("#factSlurm").queryAs(Label.class);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, fact::isVisible));
        String facts = fx(robot, fact::getText);
        assertTrue(facts.contains("job " + job) && facts.contains("partition debug") && facts.contains("pending: BeginTime"), facts);
    }
}
