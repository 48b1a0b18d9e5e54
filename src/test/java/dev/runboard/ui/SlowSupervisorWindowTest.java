package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.EngineConfig;
import dev.runboard.process.SessionEngine;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.process.SupervisorLink;
import dev.runboard.session.KillReport;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.ui.sessions.SessionRow;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
 * The window as a client of a supervisor that is slow to answer (as one that must first start is):
 * a start from the window waits in the background, the FX thread keeps answering, and the row
 * arrives once the supervisor has answered. The stub holds the start until the test lets it go,
 * so nothing here depends on how fast the machine is.
 */
@ExtendWith(ApplicationExtension.class)
class SlowSupervisorWindowTest {
    private static final long WAIT_S = 30;
    /** Generous: the FX thread only has to run one empty event, but the CI machine is shared. */
    private static final long FX_ANSWERS_MS = 2_000;

    @TempDir
    Path dataDir;

    private SessionEngine owner;
    private SlowLink link;
    private SupervisedSessions view;
    private WindowFixture fixture;

    @Start
    void start(Stage stage) {
        owner = SessionEngine.forDataDir(dataDir);
        link = new SlowLink(owner);
        view = new SupervisedSessions(EngineConfig.forDataDir(dataDir), link);
        view.load();
        fixture = WindowFixture.open(stage, view);
    }

    @AfterEach
    void stop() throws Exception {
        link.release.countDown();
        fixture.close();
        owner.killAll(Duration.ofSeconds(1));
        owner.close();
    }

    @Test
    void theFxThreadAnswersWhileAStartWaitsForTheSupervisorAndTheRowComesAfter(FxRobot robot) throws Exception {
        SessionSpec spec = SessionSpec.shell("sleep 60").shell(Path.of("/bin/sh")).cwd(dataDir).build();
        CompletableFuture<SessionRow> started = fx(robot, () -> fixture.window().model().launch(spec));
        assertTrue(link.entered.await(WAIT_S, TimeUnit.SECONDS), "the start reached the supervisor");

        // The start is held; the FX thread is not: it runs another event at once.
        WaitForAsyncUtils.waitForAsyncFx(FX_ANSWERS_MS, () -> { });
        assertFalse(started.isDone());
        assertTrue(fx(robot, () -> fixture.window().model().messageProperty().get()).startsWith("Starting sleep 60"));
        assertEquals(0, (int) fx(robot, () -> fixture.window().sessions().rows().size()));

        link.release.countDown();
        SessionRow row = started.get(WAIT_S, TimeUnit.SECONDS);
        assertNotEquals("JavaFX Application Thread", link.startThread);
        assertEquals(row, fx(robot, () -> fixture.window().model().selectedProperty().get()), "the new row is selected");
        assertEquals(List.of(row), fx(robot, () -> List.copyOf(fixture.window().sessions().rows())));
        assertEquals(SessionStatus.RUNNING, fx(robot, row::status));
        assertEquals("Started sleep 60", fx(robot, () -> fixture.window().model().messageProperty().get()));
    }

    @Test
    void aCommandMadeOnTheRealFxThreadIsRefused(FxRobot robot) {
        SessionSpec spec = SessionSpec.shell("echo never").cwd(dataDir).build();
        IllegalStateException refused = fx(robot, () -> assertThrows(IllegalStateException.class, () -> view.start(spec)));
        assertTrue(refused.getMessage().contains("must not be called on the FX thread"), refused.getMessage());
        assertEquals(1, link.entered.getCount(), "nothing reached the supervisor");
    }

    /** Holds each start until released, then lets a real engine on the same data dir start it (and kill it). */
    private static final class SlowLink implements SupervisorLink {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile String startThread;
        private final SessionEngine owner;

        SlowLink(SessionEngine owner) {
            this.owner = owner;
        }

        @Override
        public String start(SessionSpec spec) throws IOException {
            startThread = Thread.currentThread().getName();
            entered.countDown();
            try {
                if (!release.await(WAIT_S, TimeUnit.SECONDS)) {
                    throw new IOException("the test never let the start go");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            return owner.start(spec).id();
        }

        @Override
        public KillReport kill(String id, Signal signal, Duration grace) throws IOException {
            try {
                return owner.kill(owner.find(id).orElseThrow(), signal, grace).get(WAIT_S, TimeUnit.SECONDS);
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }

        @Override
        public boolean signal(String id, Signal signal) {
            return owner.signal(owner.find(id).orElseThrow(), signal);
        }

        @Override
        public List<Long> signalProcess(String id, long pid, Signal signal, boolean subtree) {
            return owner.signalProcess(owner.find(id).orElseThrow(), pid, signal, subtree);
        }

        @Override
        public void stdin(String id, byte[] data) throws IOException {
            throw new IOException("not in this test");
        }

        @Override
        public void closeStdin(String id) throws IOException {
            throw new IOException("not in this test");
        }

        @Override
        public long remove(String id, boolean withArtifact) throws IOException {
            return owner.remove(owner.find(id).orElseThrow(), withArtifact);
        }

        @Override
        public void ensureRunning() {
            // the owner is this test's engine, always there
        }
    }
}
