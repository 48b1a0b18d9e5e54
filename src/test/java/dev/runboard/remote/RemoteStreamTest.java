package dev.runboard.remote;

import static dev.runboard.process.EngineFixture.sha256;
import static dev.runboard.remote.RemoteEngineFixture.HOST;
import static dev.runboard.remote.RemoteEngineFixture.LONG;
import static dev.runboard.remote.RemoteEngineFixture.awaitEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import dev.runboard.process.EngineFixture;
import dev.runboard.session.Session;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Stress;
import dev.runboard.testing.TestScale;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A remote session's output stream, on the test sshd: every byte arrives, once and in order, through a
 * gigabyte, a dropped or killed ssh master, and a new owner taking over. (RemoteSessionTest has the rest
 * of a remote session's life: exit codes, deadlines, guards, kills, failures.)
 */
class RemoteStreamTest {
    @RegisterExtension
    static final SshdExtension SSHD = new SshdExtension();

    @TempDir
    Path dataDir;
    RemoteEngineFixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new RemoteEngineFixture(SSHD.get(), dataDir);
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    @Stress
    void aGigabyteArrivesByteForByteAndTheExitIsRecorded() throws Exception {
        int bytes = TestScale.size(1 << 30); // 1 GiB; a fifth of it in the fast suite
        String command = "yes 'runboard remote capture 0123456789' | head -c " + bytes;
        Session s = fx.engine.start(fx.sh(command).build());
        assertEquals(HOST, s.snapshot().host());
        // A gigabyte through ssh on two shared cores: minutes at worst, not the other tests' 90 s.
        SessionSnapshot end = EngineFixture.awaitEnd(s, Duration.ofMinutes(6));
        assertEquals(SessionStatus.COMPLETED, end.status(), end.reason());
        assertEquals(0, end.exitCode());
        Process local = new ProcessBuilder("sh", "-c", command).start();
        assertEquals(sha256(local.getInputStream()), sha256(Files.newInputStream(Path.of(end.rawOutput()))),
                "the mirror holds exactly the remote command's bytes");
        assertEquals(bytes, Files.size(Path.of(end.rawOutput())));
        assertEquals(null, end.connection(), "an ended session has no connection");
    }

    @Test
    void aDroppedMasterLosesAndDoublesNoLine() throws Exception {
        String lines = "i=1; while [ $i -le 4000 ]; do echo \"line $i\"; i=$((i+1)); "
                + "if [ $((i % 200)) -eq 0 ]; then sleep 0.1; fi; done";
        Session s = fx.engine.start(fx.sh(lines).build());
        Await.until(LONG, "some output mirrored", () -> s.snapshot().outputBytes() > 1000);
        SSHD.get().cutOff();
        fx.killMaster();
        try {
            Await.until(LONG, "the connection to drop", () -> "disconnected".equals(s.connection()));
            assertEquals(SessionStatus.RUNNING, s.snapshot().status(), "the session runs on while disconnected");
            assertEquals("disconnected", s.snapshot().connection());
        } finally {
            SSHD.get().reconnect();
        }
        SessionSnapshot end = awaitEnd(s);
        assertEquals(SessionStatus.COMPLETED, end.status(), end.reason());
        String expected = IntStream.rangeClosed(1, 4000).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
        assertEquals(expected, Files.readString(Path.of(end.rawOutput())), "every line once, in order");
        assertTrue(end.events().stream().anyMatch(e -> e.kind().equals(SessionEvent.CONNECTION)),
                "the drop is an event: " + end.events());
    }

    @Test
    void aMasterKilledMidStreamResumesFromTheLastByte() throws Exception {
        // 4 million numbered lines (~30 MB) in 40 bursts, so the kill falls while the stream is busy.
        String bursts = "i=0; while [ $i -lt 40 ]; do seq $((i*100000+1)) $((i*100000+100000)); i=$((i+1)); sleep 0.1; done";
        Session s = fx.engine.start(fx.sh(bursts).build());
        Await.until(LONG, "the output stream to open", () -> fx.remote.link(HOST).streaming());
        Await.until(LONG, "some megabytes streamed", () -> s.captureFile().toFile().length() > 4_000_000);
        SSHD.get().cutOff();
        fx.killMaster();
        long atKill = Files.size(s.captureFile());
        try {
            Await.until(LONG, "the connection to drop", () -> "disconnected".equals(s.connection()));
        } finally {
            SSHD.get().reconnect();
        }
        SessionSnapshot end = awaitEnd(s);
        assertEquals(SessionStatus.COMPLETED, end.status(), end.reason());
        Process seq = new ProcessBuilder("seq", "1", "4000000").start();
        Path raw = Path.of(end.rawOutput());
        assertTrue(atKill < Files.size(raw), "the master was killed mid-stream (" + atKill + " of " + Files.size(raw) + " bytes)");
        assertEquals(sha256(seq.getInputStream()), sha256(Files.newInputStream(raw)), "every line once, in order");
    }

    @Test
    void moreSessionsThanStreamsAllArriveExactlyThePollBringingTheRest() throws Exception {
        // Two more sessions than the streams one connection may hold: the poll carries the output of those without.
        int count = SessionStreams.MAX_OPEN + 2;
        String bursts = "seq 1 30000; sleep 2; seq 30001 60000";
        List<Session> sessions = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            sessions.add(fx.engine.start(fx.sh(bursts).build()));
        }
        int[] most = new int[1];
        Await.until(LONG, "every session's first burst here", () -> {
            most[0] = Math.max(most[0], streamsOfThisProcess());
            return sessions.stream().allMatch(s -> s.captureFile().toFile().length() > 100_000);
        });
        assertTrue(most[0] >= 1 && most[0] <= SessionStreams.MAX_OPEN, "streams open at once: " + most[0]);
        Process seq = new ProcessBuilder("seq", "1", "60000").start();
        String expected = sha256(seq.getInputStream());
        for (Session s : sessions) {
            SessionSnapshot end = awaitEnd(s);
            assertEquals(SessionStatus.COMPLETED, end.status(), end.reason());
            assertEquals(expected, sha256(Files.newInputStream(Path.of(end.rawOutput()))), "every line once, in order: " + s.id());
        }
    }

    /** The ssh calls of this process's output streams open now (the test sshd's side of them is below this process too). */
    private static int streamsOfThisProcess() {
        return (int) ProcessHandle.current().descendants().filter(p -> p.info().command().orElse("").endsWith("/ssh")
                && p.info().arguments().map(a -> String.join(" ", a)).orElse("").contains("'follow'")).count();
    }

    @Test
    void aNewOwnerReattachesToARunningRemoteSession() throws Exception {
        Session s = fx.engine.start(fx.sh("echo before; sleep 3; echo after; exit 3").build());
        Await.until(LONG, "the first line", () -> s.snapshot().outputBytes() > 0);
        String id = s.id();
        fx.reopen(); // the owner goes away, the command runs on, and a new owner reads the history
        Session again = fx.engine.find(id).orElseThrow();
        SessionSnapshot end = awaitEnd(again);
        assertEquals(SessionStatus.FAILED, end.status(), end.reason());
        assertEquals(3, end.exitCode());
        assertEquals("before\nafter\n", end.output());
    }
}
