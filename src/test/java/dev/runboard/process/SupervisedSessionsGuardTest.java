package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A window's command to the supervisor may wait seconds (the supervisor may first have to start),
 * so the client refuses every command made on the JavaFX application thread, before it sends
 * anything. No toolkit here: the FX thread is recognised by its name, as the client does.
 */
class SupervisedSessionsGuardTest {
    private static final String FX_THREAD = "JavaFX Application Thread";

    @TempDir
    Path dataDir;

    private final RecordingLink link = new RecordingLink();
    private SupervisedSessions client;
    private Session session;

    @BeforeEach
    void setUp() {
        client = new SupervisedSessions(EngineConfig.forDataDir(dataDir), link);
        // Not yet ended: stdin is open and nothing refuses the commands for the session's own sake.
        session = new Session("20260101-000000-0a0b0c", SessionSpec.shell("sleep 60").cwd(dataDir).build(),
                dataDir.resolve("capture"), Clock.systemUTC());
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    @Test
    void everyCommandOnTheFxThreadIsRefusedBeforeAnythingIsSent() throws Exception {
        SessionSpec spec = SessionSpec.shell("echo never").cwd(dataDir).build();
        OutputStream stdin = client.stdin(session); // making the stream sends nothing; its writes do
        List<Command> commands = List.of(
                () -> client.start(spec),
                () -> client.signal(session, Signal.TERM),
                () -> client.signalProcess(session, 1234, Signal.TERM, true),
                () -> client.remove(session, true),
                () -> client.clearFinished(),
                () -> client.killAll(Duration.ofMillis(100)),
                () -> stdin.write("typed".getBytes()),
                () -> stdin.write('x'),
                stdin::close);
        for (Command c : commands) {
            Throwable thrown = runOnThreadNamed(FX_THREAD, c);
            assertInstanceOf(IllegalStateException.class, thrown);
            assertTrue(thrown.getMessage().contains("must not be called on the FX thread"), thrown.getMessage());
        }
        assertEquals(List.of(), link.calls, "nothing reached the supervisor");
    }

    @Test
    void theSameCommandsOffTheFxThreadReachTheSupervisor() throws Exception {
        OutputStream stdin = client.stdin(session);
        assertNull(runOnThreadNamed("runboard-ui-task-1", () -> client.signal(session, Signal.USR1)));
        assertNull(runOnThreadNamed("runboard-ui-task-1", () -> stdin.write("typed".getBytes())));
        assertNull(runOnThreadNamed("runboard-ui-task-1", () -> client.killAll(Duration.ofMillis(100))));
        assertEquals(List.of("signal USR1", "stdin 5 bytes"), link.calls);
    }

    private interface Command {
        void run() throws Exception;
    }

    /** What {@code command} threw on a thread of that name, or null. */
    private static Throwable runOnThreadNamed(String name, Command command) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                command.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, name);
        t.start();
        t.join(Duration.ofSeconds(30).toMillis());
        assertTrue(!t.isAlive(), "the command returned");
        return thrown.get();
    }

    /** A supervisor that only notes what it was asked. */
    private static final class RecordingLink implements SupervisorLink {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public String start(SessionSpec spec) throws IOException {
            calls.add("start");
            throw new IOException("not in this test");
        }

        @Override
        public KillReport kill(String id, Signal signal, Duration grace) throws IOException {
            calls.add("kill " + signal);
            throw new IOException("not in this test");
        }

        @Override
        public boolean signal(String id, Signal signal) {
            calls.add("signal " + signal);
            return true;
        }

        @Override
        public List<Long> signalProcess(String id, long pid, Signal signal, boolean subtree) {
            calls.add("signalProcess " + pid);
            return List.of(pid);
        }

        @Override
        public void stdin(String id, byte[] data) {
            calls.add("stdin " + data.length + " bytes");
        }

        @Override
        public void closeStdin(String id) {
            calls.add("closeStdin");
        }

        @Override
        public long remove(String id, boolean withArtifact) {
            calls.add("remove");
            return 0;
        }

        @Override
        public void ensureRunning() {
            calls.add("ensureRunning");
        }
    }
}
