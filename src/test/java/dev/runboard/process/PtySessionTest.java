package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.KillReport;
import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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

    @Test
    @dev.runboard.testing.Stress
    void aCommandThatReadsTheTerminalAtOnceIsNeverStoppedForIt() throws Exception {
        // The wrapper hands the terminal's foreground to the command's new group; a command that read it before the
        // hand-off was stopped by SIGTTIN for good (seen once in CI, on a loaded machine). Many at once make the race.
        int count = dev.runboard.testing.TestScale.races(40);
        List<Session> sessions = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            Session s = fx.engine().start(fx.sh("read line; echo got:$line").pty(true).build());
            OutputStream in = fx.engine().stdin(s);
            in.write(("line" + i + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            sessions.add(s);
        }
        for (int i = 0; i < count; i++) {
            SessionSnapshot end = EngineFixture.awaitEnd(sessions.get(i));
            assertEquals(SessionStatus.COMPLETED, end.status(), end.output());
            assertTrue(end.output().contains("got:line" + i), end.output());
        }
    }

    @Test
    void theTerminalIsHeldByScriptOutsideThisJvm() throws Exception {
        Session s = fx.engine().start(fx.sh("tty; cat; echo eof").pty(true).build());
        Await.until(WAIT, "the terminal's name", () -> s.snapshot().output().contains("/dev/pts/"));
        ProcInfo leader = LinuxProcesses.readStat(s.pid()).orElseThrow();
        assertEquals(s.pid().longValue(), leader.sid(), "the session's pid leads the terminal's session");
        assertEquals(s.pid().longValue(), leader.pgid(), "and its process group");
        ProcInfo holder = LinuxProcesses.readStat(leader.ppid()).orElseThrow();
        assertEquals("script", holder.comm(), "util-linux script holds the terminal");
        assertEquals(holder.pid(), holder.sid(), "script has a session of its own: no terminal's signals reach it");
        OsProcesses os = OsProcesses.forThisMachine();
        assertFalse(os.hasEnvEntry(holder.pid(), s.tag()), "script is not tagged: the sampler and the kill leave it alone");
        assertTrue(os.hasEnvEntry(s.pid(), s.tag()), "the command is tagged");
        assertTrue(os.hasEnvEntry(holder.pid(), PtyLauncher.HOLDER_VAR + "=" + s.id()), "script is marked as the holder");
        assertFalse(os.hasEnvEntry(s.pid(), PtyLauncher.HOLDER_VAR + "=" + s.id()), "the command does not inherit the mark");
        assertEquals(List.of(), ptyMastersOpenHere(), "this JVM holds no terminal master");
        OutputStream in = fx.engine().stdin(s);
        in.write("hello\n".getBytes(StandardCharsets.UTF_8));
        in.flush();
        Await.until(WAIT, "the echo of stdin through the terminal", () -> s.snapshot().output().contains("hello\r\nhello"));
        in.close();
        SessionSnapshot end = EngineFixture.awaitEnd(s);
        assertEquals(SessionStatus.COMPLETED, end.status(), "closing stdin reached cat as the terminal's end-of-file");
        assertTrue(end.output().endsWith("eof\r\n"), end.output());
        assertFalse(ProcessHandle.of(holder.pid()).map(ProcessHandle::isAlive).orElse(false), "script has exited too");
    }

    @Test
    void aKillEndsTheCommandAndItsHolderAndKeepsTheCommandsLastWords() throws Exception {
        Session s = fx.engine().start(fx.sh("trap 'echo last words; exit 9' TERM; echo up; while :; do sleep 0.05; done")
                .pty(true).build());
        Await.until(WAIT, "the command to be up", () -> s.snapshot().output().contains("up"));
        long holder = LinuxProcesses.readStat(s.pid()).orElseThrow().ppid();
        KillReport report = fx.engine().kill(s, Signal.TERM, Duration.ofSeconds(10)).get(30, TimeUnit.SECONDS);
        assertFalse(report.escalatedToKill(), "TERM was enough: the kill did not wait out its grace");
        assertEquals(List.of(), report.sweptByTag(), "script is not the command's: nothing was swept");
        SessionSnapshot end = EngineFixture.awaitEnd(s);
        assertEquals(SessionStatus.KILLED, end.status());
        assertTrue(end.output().endsWith("last words\r\n"), "script was not signalled: it copied the trap's output: "
                + end.output());
        assertFalse(ProcessHandle.of(holder).map(ProcessHandle::isAlive).orElse(false), "script has exited");
        assertEquals(List.of(), EngineFixture.liveTagged(s));
    }

    @Test
    void argvWordsAndTheCommandsShellSurviveScriptsShellString() throws Exception {
        SessionSnapshot s = fx.run(SessionSpec.argv("/bin/sh", "-c", "printf '%s|' \"$@\"; echo \"$SHELL\"", "x",
                        "a b", "it's", "$HOME", "", "*").cwd(dataDir).env("SHELL", "/my shell/zsh").pty(true).build());
        assertEquals("a b|it's|$HOME||*|/my shell/zsh\r\n", s.output());
    }

    @Test
    void withoutScriptTheTerminalIsHeldHereAndThatIsReportedOnce() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        OsProcesses os = OsProcesses.forThisMachine();
        PtyLauncher launcher = new PtyLauncher(os, new SessionLauncher(os, dataDir, warnings::add), warnings::add, Optional::empty);
        SessionSpec spec = fx.sh("test -t 1 && echo tty; stty size; exit 3").pty(true).build();
        for (int i = 0; i < 2; i++) {
            Path capture = Files.createFile(dataDir.resolve("capture-" + i));
            Process p = launcher.launch(spec, null, "RUNBOARD_SESSION=fallback-" + i, capture, dataDir.resolve("status-" + i));
            assertEquals(3, p.onExit().get(30, TimeUnit.SECONDS).exitValue());
            assertEquals("tty\r\n40 120\r\n", Files.readString(capture));
        }
        assertEquals(List.of(PtyLauncher.NO_SCRIPT), warnings);
    }

    /** This JVM's open file descriptors that are a terminal's master (/dev/ptmx). */
    static List<String> ptyMastersOpenHere() throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.endsWith("ptmx")) {
                        out.add(fd.getFileName() + " -> " + target);
                    }
                } catch (IOException gone) {
                    // closed meanwhile (the listing's own fd)
                }
            }
        }
        return out;
    }
}
