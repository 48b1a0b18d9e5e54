package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorClient;
import dev.runboard.process.EngineConfig;
import dev.runboard.process.LinuxProcesses;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionState;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.DataDirs;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import dev.runboard.testing.Poll;
import dev.runboard.ui.ansi.StyledLine;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * Finished sessions restored from the history, with outputs larger than the preview and not
 * Latin-1: every row shows its last line and output size while holding none of its preview's
 * bytes, and selecting one shows its output's start and end in the tail, read back from disk.
 */
@ExtendWith(ApplicationExtension.class)
class FinishedHistoryRowTest {
    private static final int SESSIONS = 60;
    private static final long WAIT_S = 120;

    @TempDir
    Path dataDir;

    private WindowFixture fixture;

    @Start
    void start(Stage stage) throws Exception {
        writeHistory(dataDir);
        SupervisedSessions engine = new SupervisedSessions(EngineConfig.forDataDir(dataDir), SupervisorClient.forDataDir(dataDir));
        fixture = WindowFixture.open(stage, engine);
        MainWindow window = fixture.window();
        HistoryLoad.afterFirstFrame(window, new SessionStore(dataDir).folderCount(), new FxUiTasks(), engine::load,
                () -> engine.follow(Duration.ofSeconds(1)), StartupReport.fromEnvironment(LinuxProcesses::millisSinceStart));
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void aFinishedRowHoldsNoPreviewBytesAndShowsItsTailWhenSelected(FxRobot robot) throws Exception {
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> fixture.window().sessions().rows().size()) == SESSIONS);
        List<SessionRow> rows = fx(robot, () -> List.copyOf(fixture.window().sessions().rows()));
        for (int i = 0; i < SESSIONS; i++) {
            SessionRow row = rows.get(i);
            int n = Integer.parseInt(row.commandProperty().get().substring("build ".length()));
            assertEquals(lastLine(n), fx(robot, () -> row.lastLineProperty().get()), "the last line column of run " + n);
            assertEquals(OUTPUT_BYTES, (long) fx(robot, () -> row.outputBytesProperty().get()), "the output size column of run " + n);
            assertEquals(0, heldBytes(robot, row), "run " + n + "'s row holds none of its preview");
        }

        TableView<?> table = robot.lookup(".session-table").queryAs(TableView.class);
        ListView<?> tail = robot.lookup("#outputList").queryAs(ListView.class);
        for (int pick : new int[] {7, 42}) {
            robot.interact(() -> table.getSelectionModel().select(pick));
            SessionRow selected = fx(robot, () -> (SessionRow) table.getItems().get(pick));
            int n = Integer.parseInt(selected.commandProperty().get().substring("build ".length()));
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !tail.getItems().isEmpty()
                    && ((StyledLine) tail.getItems().get(tail.getItems().size() - 1)).plain().equals(lastLine(n))));
            assertEquals("first line of run " + String.format("%03d", n), fx(robot, () -> ((StyledLine) tail.getItems().get(0)).plain()),
                    "the tail shows the output's head too");
            assertTrue(fx(robot, () -> robot.lookup("#truncatedLabel").query().isVisible()), "it says the middle is left out");
            assertTrue(fx(robot, () -> tail.getItems().stream().anyMatch(l -> ((StyledLine) l).plain().contains("ünïcödé"))),
                    "non-Latin-1 text comes back as it was written");
            // What was read back belongs to the pane, not to the row: the row keeps only its summary.
            assertEquals(0, heldBytes(robot, selected), "the selected row itself still holds no preview");
        }
        for (SessionRow row : rows) {
            assertEquals(0, heldBytes(robot, row), "no row took a preview's bytes from the selections");
        }
        assertFalse(fx(robot, () -> rows.get(0).snapshot().preview().isHeld()), "rows hold summaries");
    }

    private static long heldBytes(FxRobot robot, SessionRow row) {
        return fx(robot, () -> row.snapshot().preview().heldBytes());
    }

    private static final long OUTPUT_BYTES;
    static {
        OUTPUT_BYTES = output(0).length; // every run's output has the same length (run numbers padded)
    }

    private static String lastLine(int n) {
        return "── ✓ run " + String.format("%03d", n) + " finished ──";
    }

    /** 100 KiB-ish of output: more than the 64 KiB preview, so it has a head and a tail, with non-Latin-1 lines. */
    private static byte[] output(int n) {
        StringBuilder out = new StringBuilder("first line of run " + String.format("%03d", n) + "\n");
        for (int i = 0; i < 2_000; i++) {
            out.append(String.format("%04d compiling ünïcödé module of run %03d%n", i, n));
        }
        out.append(lastLine(n)).append('\n');
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void writeHistory(Path dataDir) throws Exception {
        SessionStore store = new SessionStore(dataDir);
        Instant first = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i < SESSIONS; i++) {
            Instant started = first.plus(Duration.ofMinutes(i));
            String id = String.format("20260101-%06d-%06x", i, i);
            SessionSpec spec = SessionSpec.shell("build " + i).cwd(dataDir).build();
            byte[] output = output(i);
            DataDirs.createPrivateDirectories(store.dirOf(id));
            Path capture = store.file(id, SessionStore.CAPTURE);
            Files.write(capture, output);
            SessionOutcome outcome = new SessionOutcome(SessionStatus.COMPLETED, started.plusSeconds(3), 0, null, null,
                    OutputPreview.of(output, spec.previewBytes()), null, null, null, capture.toString());
            store.save(SessionRecord.of(id, spec, new SessionState.Ended(started, 10_000L + i, 1L, outcome, null, null, List.of())));
        }
    }
}
