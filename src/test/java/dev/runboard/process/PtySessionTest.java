package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PTY mode on real processes: the program sees a terminal, output lands in the capture, the tree is still ours. */
class PtySessionTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dataDir;
    EngineFixture fx;

    @BeforeEach
    void setUp() {
        fx = new EngineFixture(dataDir);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void programSeesATerminalOfASensibleSize() throws Exception {
        SessionSnapshot pty = fx.run(fx.sh("test -t 1 && echo tty || echo notty; stty size; echo $TERM").pty(true).build());
        assertEquals(SessionStatus.COMPLETED, pty.status());
        assertEquals("tty\r\n40 120\r\nxterm-256color\r\n", pty.output(), "a terminal turns \\n into \\r\\n");
        SessionSnapshot plain = fx.run(fx.sh("test -t 1 && echo tty || echo notty").build());
        assertEquals("notty\n", plain.output());
    }

    @Test
    void exitCodeAndLastOutputSurviveAQuickExit() throws Exception {
        SessionSnapshot s = fx.run(fx.sh("seq 1 20000; exit 3").pty(true).build());
        assertEquals(SessionStatus.FAILED, s.status());
        assertEquals(3, s.exitCode());
        assertEquals("20000", s.lastLine().strip(), "the copier drained the terminal before the outcome");
    }

    @Test
    void leaderOwnsItsGroupAndAKillEndsTheTree() throws Exception {
        Session s = fx.engine().start(fx.sh("sleep 600 & sleep 601").pty(true).build());
        Await.until(WAIT, "both sleeps in the tree", () -> SessionInsightTest.has(fx.engine().insight(s), "sleep 600")
                && SessionInsightTest.has(fx.engine().insight(s), "sleep 601"));
        assertEquals(s.pid().longValue(), LinuxProcesses.readStat(s.pid()).orElseThrow().pgid(), "session leader");
        assertTrue(fx.engine().insight(s).tree().nodes().stream().noneMatch(ProcessTreeSnapshot.Node::escapedGroup));
        fx.engine().kill(s, Signal.TERM, Duration.ofSeconds(2)).get();
        assertEquals(SessionStatus.KILLED, EngineFixture.awaitEnd(s).status());
        assertEquals(java.util.List.of(), EngineFixture.liveTagged(s));
    }

    @Test
    void stdinGoesThroughTheTerminalAndCloseSendsEof() throws Exception {
        Session s = fx.engine().start(fx.sh("read line; echo got:$line; cat").pty(true).build());
        OutputStream in = fx.engine().stdin(s);
        in.write("abc\n".getBytes(StandardCharsets.UTF_8));
        in.flush();
        Await.until(WAIT, "the answer", () -> s.snapshot().output().contains("got:abc"));
        in.close();
        SessionSnapshot end = EngineFixture.awaitEnd(s);
        assertEquals(SessionStatus.COMPLETED, end.status(), "cat read EOF from the terminal");
    }
}
