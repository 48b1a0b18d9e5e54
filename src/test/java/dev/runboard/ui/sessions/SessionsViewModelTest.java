package dev.runboard.ui.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.common.FxUiTasks;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import javafx.beans.value.ObservableValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** The poller and the list view-model with a real engine and the FX toolkit, without a window. */
class SessionsViewModelTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path workDir;
    private SessionEngine engine;
    private SessionsViewModel model;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (model != null) {
            WaitForAsyncUtils.waitForAsyncFx(5_000, model::stopPolling);
        }
        if (engine != null) {
            engine.killAll(Duration.ofSeconds(1));
            engine.close();
        }
    }

    @Test
    void pollerAppliesSnapshotsOnlyOnTheFxThreadAndDropsFinishedRows() throws Exception {
        engine = SessionEngine.forDataDir(dataDir);
        List<Boolean> onFxThread = new CopyOnWriteArrayList<>();
        List<Boolean> endedOnFxThread = new CopyOnWriteArrayList<>();
        AtomicReference<SessionRow> row = new AtomicReference<>();
        // A session-end listener on the engine runs on a worker thread; the row must not change there.
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> {
            model = new SessionsViewModel(Clock.systemUTC(), javafx.util.Duration.millis(50), new FxUiTasks());
            model.attach(engine);
            model.onSessionEnded(r -> endedOnFxThread.add(Platform.isFxApplicationThread()));
            Session s = engine.start(SessionSpec.shell("echo started; sleep 0.5; echo done; exit 3").cwd(workDir).build());
            row.set(model.find(s.id()));
            for (ObservableValue<?> p : List.of(row.get().statusProperty(), row.get().elapsedProperty(),
                    row.get().snapshotProperty(), row.get().lastLineProperty(), row.get().outputBytesProperty())) {
                p.addListener(o -> onFxThread.add(Platform.isFxApplicationThread()));
            }
            model.startPolling();
        });
        SessionRow r = row.get();
        assertEquals(1, fx(model::polledRowCount), "a running row is polled");

        Poll.waitFor(15, TimeUnit.SECONDS, () -> fx(r::status) == SessionStatus.FAILED);
        assertEquals("3", fx(() -> r.exitProperty().get()));
        assertEquals("done", fx(() -> r.lastLineProperty().get()));
        assertFalse(onFxThread.isEmpty());
        assertTrue(onFxThread.stream().allMatch(b -> b), "every property change happened on the FX thread");
        assertEquals(List.of(true), endedOnFxThread, "the end was told once, on the FX thread");
        assertEquals(0, fx(model::polledRowCount), "a finished row costs nothing per tick");

        assertEquals(0, fx(() -> model.poller().getCurrentFailureCount()), "no poll failed");
    }

    @Test
    void filterAndSortFollowStatusChanges() throws Exception {
        engine = SessionEngine.forDataDir(dataDir);
        AtomicReference<SessionRow> quick = new AtomicReference<>();
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> {
            model = new SessionsViewModel(Clock.systemUTC(), javafx.util.Duration.millis(50), new FxUiTasks());
            model.attach(engine);
            engine.start(SessionSpec.shell("sleep 30").cwd(workDir).build());
            quick.set(model.find(engine.start(SessionSpec.shell("exit 0").cwd(workDir).build()).id()));
            model.statusFilterProperty().set(StatusFilter.RUNNING);
            model.startPolling();
        });
        Poll.waitFor(15, TimeUnit.SECONDS, () -> fx(() -> quick.get().status()) == SessionStatus.COMPLETED);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(1, fx(() -> model.visibleRows().size()), "the ended session left the running filter");
        assertEquals(SessionStatus.RUNNING, fx(() -> model.visibleRows().get(0).status()));
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> model.statusFilterProperty().set(StatusFilter.COMPLETED));
        assertEquals(List.of(quick.get()), fx(() -> List.copyOf(model.visibleRows())));
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> {
            model.statusFilterProperty().set(StatusFilter.ALL);
            model.filterTextProperty().set("SLEEP");
        });
        assertEquals(1, fx(() -> model.visibleRows().size()), "the text filter matches the command, ignoring case");
    }

    @Test
    void aTableSortedByOutputSizeFollowsTheSessionThatOvertakes() throws Exception {
        engine = SessionEngine.forDataDir(dataDir);
        AtomicReference<SessionRow> early = new AtomicReference<>();
        AtomicReference<SessionRow> late = new AtomicReference<>();
        Path go = workDir.resolve("go");
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> {
            model = new SessionsViewModel(Clock.systemUTC(), javafx.util.Duration.millis(50), new FxUiTasks());
            model.attach(engine);
            // "early" writes 1 KB at once; "late" writes 100 KB once the test says so.
            early.set(model.find(engine.start(SessionSpec.shell("head -c 1000 /dev/zero; sleep 30").cwd(workDir).build()).id()));
            late.set(model.find(engine.start(SessionSpec.shell(
                    "while [ ! -e go ]; do sleep 0.05; done; head -c 100000 /dev/zero; sleep 30").cwd(workDir).build()).id()));
            model.visibleRows().setComparator(java.util.Comparator.comparing((SessionRow r) -> r.outputBytesProperty().get()).reversed());
            model.setSortReads(java.util.Set.of(LiveColumn.COUNTERS));
            model.startPolling();
        });
        Poll.waitFor(15, TimeUnit.SECONDS, () -> fx(() -> model.visibleRows().get(0)) == early.get());
        java.nio.file.Files.createFile(go);
        Poll.waitFor(15, TimeUnit.SECONDS, () -> fx(() -> model.visibleRows().get(0)) == late.get());
        assertEquals(100_000L, fx(() -> late.get().outputBytesProperty().get()), "the size shown is the size written");
    }

    private static <T> T fx(java.util.concurrent.Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(5, TimeUnit.SECONDS);
    }
}
