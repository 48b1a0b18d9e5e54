package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import dev.runboard.store.AtomicFiles;
import dev.runboard.store.DataDirs;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import dev.runboard.testing.Poll;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.animation.AnimationTimer;
import javafx.collections.ListChangeListener;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A large history (2,000 finished sessions) as the app opens it: the window is up with its
 * placeholder saying how many sessions are loading, the FX thread keeps drawing frames while the
 * records are read, and then every row joins the table in one batch; the detail pane comes after.
 */
@ExtendWith(ApplicationExtension.class)
class LargeHistoryWindowTest {
    private static final int SESSIONS = 2_000;
    private static final long WAIT_S = 120;

    @TempDir
    Path dataDir;

    private SupervisedSessions engine;
    private WindowFixture fixture;
    private final List<String> placeholderTexts = new CopyOnWriteArrayList<>();
    private final AtomicInteger pulsesWhileLoading = new AtomicInteger();
    private final AtomicInteger batchesAdded = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicBoolean detailLoadedWhileLoading = new java.util.concurrent.atomic.AtomicBoolean();
    private AnimationTimer pulses;

    @Start
    void start(Stage stage) throws Exception {
        writeHistory(dataDir, SESSIONS);
        engine = new SupervisedSessions(EngineConfig.forDataDir(dataDir), SupervisorClient.forDataDir(dataDir));
        fixture = WindowFixture.open(stage, engine);
        MainWindow window = fixture.window();
        Label placeholder = (Label) window.stage().getScene().lookup("#tablePlaceholder");
        placeholder.textProperty().addListener((o, was, now) -> placeholderTexts.add(now));
        window.sessions().rows().addListener((ListChangeListener<SessionRow>) c -> {
            while (c.next()) {
                if (c.wasAdded()) {
                    batchesAdded.incrementAndGet();
                }
            }
        });
        // Counts the frames drawn while the history loads: an FX thread blocked by the load draws none.
        pulses = new AnimationTimer() {
            @Override
            public void handle(long now) {
                if (window.sessions().loadingProperty().get() >= 0) {
                    pulsesWhileLoading.incrementAndGet();
                    if (window.controller().detail().isLoaded()) {
                        detailLoadedWhileLoading.set(true);
                    }
                }
            }
        };
        pulses.start();
        HistoryLoad.afterFirstFrame(window, new SessionStore(dataDir).folderCount(), new FxUiTasks(), engine::load,
                () -> engine.follow(Duration.ofSeconds(1)), StartupReport.fromEnvironment(LinuxProcesses::millisSinceStart));
    }

    @AfterEach
    void stop() throws Exception {
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> pulses.stop());
        fixture.close();
    }

    @Test
    void theWindowSaysHowManySessionsAreLoadingKeepsDrawingThenShowsEveryRowAtOnceThenTheDetailPane(FxRobot robot) throws Exception {
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> fixture.window().sessions().rows().size()) == SESSIONS);

        assertEquals("Loading 2,000 sessions\u2026", placeholderTexts.get(0), "what the empty table said first: " + placeholderTexts);
        assertTrue(pulsesWhileLoading.get() >= 2, "frames kept coming while the history loaded: " + pulsesWhileLoading.get());
        assertEquals(1, batchesAdded.get(), "the whole history joined the table in one batch");
        assertEquals(-1, (int) fx(robot, () -> fixture.window().sessions().loadingProperty().get()), "nothing is loading any more");
        assertEquals(SESSIONS, (int) fx(robot, () -> fixture.window().controller().table().getItems().size()), "every row is in the table");
        // Oldest first, as the records were written.
        assertEquals("make test 0", fx(robot, () -> fixture.window().controller().table().getItems().get(0).commandProperty().get()));
        assertEquals("make test " + (SESSIONS - 1), fx(robot, () -> fixture.window().controller().table().getItems().get(SESSIONS - 1)
                .commandProperty().get()));

        // The detail pane waits for the rows (loaded during the read, it took the FX thread and a core from
        // it), then comes unasked.
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> fixture.window().controller().detail().isLoaded()
                && fixture.window().controller().detail().root().getScene() == fixture.window().stage().getScene()));
        assertTrue(!detailLoadedWhileLoading.get(), "the detail pane was not loaded while the history loaded");
        assertEquals(null, fx(robot, () -> fixture.window().model().selectedProperty().get()), "nothing was selected to load it");
    }

    /** Finished sessions written through the store as the supervisor leaves them (a record and a small capture each); no fsync. */
    static void writeHistory(Path dataDir, int count) throws Exception {
        AtomicFiles plain = (target, content) -> {
            if (!Files.exists(target)) {
                DataDirs.createPrivateFile(target);
            }
            Files.write(target, content);
        };
        SessionStore store = new SessionStore(dataDir, plain);
        Instant first = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i < count; i++) {
            Instant started = first.plus(Duration.ofMinutes(i));
            String id = String.format("20260101-%06d-%06x", i, i);
            SessionSpec spec = SessionSpec.shell("make test " + i).cwd(dataDir).build();
            byte[] output = ("line one of " + i + "\nthe last line of " + i + "\n").getBytes(StandardCharsets.UTF_8);
            DataDirs.createPrivateDirectories(store.dirOf(id));
            Path capture = store.file(id, SessionStore.CAPTURE);
            plain.write(capture, output);
            SessionOutcome outcome = new SessionOutcome(SessionStatus.COMPLETED, started.plusSeconds(3), 0, null, null,
                    OutputPreview.of(output, spec.previewBytes()), null, null, null, capture.toString());
            store.save(SessionRecord.of(id, spec, new SessionState.Ended(started, 10_000L + i, 1L, outcome, null, null, List.of())));
        }
    }
}
