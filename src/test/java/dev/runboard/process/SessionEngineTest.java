package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionEngineTest {
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
    void exitZeroCompletesAndKeepsTheCaptureThatFitInThePreviewAsItsRawOutput() throws Exception {
        SessionSnapshot s = fx.run(fx.sh("echo hello; echo oops >&2").build());
        assertEquals(SessionStatus.COMPLETED, s.status());
        assertEquals(0, s.exitCode());
        assertEquals("hello\noops\n", s.output(), "stdout and stderr interleaved as written");
        assertFalse(s.outputTruncated());
        assertNull(s.artifact());
        Path capture = dataDir.resolve("sessions").resolve(s.sessionId()).resolve("capture.log");
        assertEquals(Session.slashes(capture), s.rawOutput(), "the exact bytes stay, where raw_output says");
        assertEquals("hello\noops\n", Files.readString(capture));
        assertTrue(Files.exists(dataDir.resolve("sessions").resolve(s.sessionId()).resolve("session.json")), "record kept");
        assertNotNull(s.endedAt());
    }

    @Test
    void nonZeroExitFailsWithItsCode() throws Exception {
        SessionSnapshot s = fx.run(fx.sh("echo about to fail; exit 3").build());
        assertEquals(SessionStatus.FAILED, s.status());
        assertEquals(3, s.exitCode());
        assertEquals("exited with code 3", s.reason());
        assertEquals("about to fail", s.lastLine());
    }

    @Test
    void commandNotFoundFailsWith127AndTheShellsMessage() throws Exception {
        SessionSnapshot s = fx.run(fx.sh("no-such-command-runboard").build());
        assertEquals(SessionStatus.FAILED, s.status());
        assertEquals(127, s.exitCode());
        assertTrue(s.output().contains("no-such-command-runboard"), s.output());
        assertTrue(s.output().contains("not found"), s.output());
    }

    @Test
    void argvRunsWithoutAShellSoMetacharactersStayLiteral() throws Exception {
        SessionSnapshot s = fx.run(SessionSpec.argv("echo", "$HOME; echo injected").cwd(dataDir).build());
        assertEquals("$HOME; echo injected\n", s.output());
        assertNull(s.shell());
        assertEquals(List.of("echo", "$HOME; echo injected"), s.argv());
    }

    @Test
    void argvProgramNotFoundFailsWith127() throws Exception {
        SessionSnapshot s = fx.run(SessionSpec.argv("no-such-program-runboard").cwd(dataDir).build());
        assertEquals(SessionStatus.FAILED, s.status());
        assertEquals(127, s.exitCode());
        assertTrue(s.output().contains("no-such-program-runboard"), s.output());
    }

    @Test
    void runsInTheGivenCwdWithTheExtraEnvAndItsTag() throws Exception {
        Path work = Files.createDirectory(dataDir.resolve("work dir"));
        SessionSnapshot s = fx.run(fx.sh("pwd; echo \"$GREETING\"; echo \"$RUNBOARD_SESSION\"")
                .cwd(work).env("GREETING", "hi there").build());
        assertEquals(work + "\nhi there\n" + s.sessionId() + "\n", s.output());
        assertEquals(work.toString(), s.cwd());
    }

    @Test
    void signalsAreNotInheritedAsIgnored() throws Exception {
        // SigIgn is a hex mask of ignored signals (bit n-1 for signal n); none of the standard
        // signals 1-31 may start ignored. 32 and 33 are glibc's internal real-time signals.
        SessionSnapshot s = fx.run(fx.sh("grep SigIgn /proc/self/status").build());
        long mask = Long.parseLong(s.output().strip().substring("SigIgn:".length()).strip(), 16);
        assertEquals(0, mask & 0x7FFFFFFFL, "ignored signals: " + s.output());
    }

    @Test
    void eachSessionLeadsItsOwnProcessGroup() throws Exception {
        Session s = fx.engine().start(fx.sh("exec sleep 30").build());
        ProcInfo info = LinuxProcesses.readStat(s.pid()).orElseThrow();
        assertEquals(s.pid(), info.pgid(), "the session leads its own process group");
        // ...but stays in runboard's session, so it shares the window's scheduler autogroup.
        Path autogroup = Path.of("/proc/" + s.pid() + "/autogroup");
        if (Files.exists(autogroup)) {
            assertEquals(Files.readString(Path.of("/proc/self/autogroup")).split(" ")[0],
                    Files.readString(autogroup).split(" ")[0]);
        }
        fx.engine().kill(s, Signal.TERM, Duration.ofSeconds(1)).get();
        assertEquals(SessionStatus.KILLED, EngineFixture.awaitEnd(s).status());
    }

    @Test
    void theCommandRunsAtItsNicenessButItsWrapperDoesNot() throws Exception {
        // awk reads its own stat: field 19 is the niceness it inherited from the command's shell.
        String printNice = "awk '{print $19}' /proc/self/stat";
        SessionSnapshot background = fx.run(fx.sh(printNice).nice(SessionSpec.BACKGROUND_NICE).build());
        assertEquals("10\n", background.output());
        assertEquals(10, background.nice());
        assertEquals("0\n", fx.run(fx.sh(printNice).build()).output(), "normal priority by default");

        Session s = fx.engine().start(fx.sh("exec sleep 30").nice(19).build());
        assertEquals(0, LinuxProcesses.readStat(s.pid()).orElseThrow().nice(), "the wrapper that records the end keeps normal priority");
        fx.engine().kill(s, Signal.TERM, Duration.ofSeconds(1)).get();
        EngineFixture.awaitEnd(s);
    }

    @Test
    void timeoutKillsTheTreeAndSaysSoWhenThereWasNoOutput() throws Exception {
        SessionSnapshot s = fx.run(fx.sh("sleep 30 & sleep 30; wait").timeout(Duration.ofSeconds(1))
                .grace(Duration.ofMillis(200)).build());
        assertEquals(SessionStatus.TIMEOUT, s.status());
        assertTrue(s.elapsedSeconds() >= 1.0 && s.elapsedSeconds() < 10, "elapsed " + s.elapsedSeconds());
        assertTrue(s.output().contains("timed out after 1 s"), s.output());
        assertEquals(0, s.outputBytes());
        assertEquals("TERM", s.killReport().signal());
        assertEquals(List.of(), s.killReport().survivors());
    }

    @Test
    void outputThatIsNotUtf8ComesBackByteForByteFromRawOutput() throws Exception {
        // Invalid UTF-8, a NUL, a carriage return: the preview decodes them, the raw output keeps them.
        SessionSnapshot s = fx.run(fx.sh("printf '\\377\\376 abc\\000\\r\\n'").build());
        byte[] written = {(byte) 0xff, (byte) 0xfe, ' ', 'a', 'b', 'c', 0, '\r', '\n'};
        assertArrayEquals(written, Files.readAllBytes(Path.of(s.rawOutput())));
        assertNull(s.artifact());
    }

    @Test
    void deathBySignalRecordsTheSignal() throws Exception {
        SessionSnapshot s = fx.run(fx.sh("kill -SEGV $$").build());
        assertEquals(SessionStatus.FAILED, s.status());
        assertEquals("SEGV", s.signal());
        assertEquals(128 + 11, s.exitCode());
        assertEquals("ended by signal SEGV", s.reason());
    }

    @Test
    void killedSessionRecordsTheReport() throws Exception {
        Session s = fx.engine().start(fx.sh("echo started; sleep 30").build());
        var report = fx.engine().kill(s, Signal.TERM, Duration.ofSeconds(2)).get();
        SessionSnapshot last = EngineFixture.awaitEnd(s);
        assertEquals(SessionStatus.KILLED, last.status());
        assertEquals(report, last.killReport());
        assertTrue(report.clean());
        assertTrue(report.signalled().size() >= 1);
    }

    @Test
    void invalidSpecsAreRejectedBeforeAnythingStarts() {
        var e = assertThrows(InvalidSpecException.class,
                () -> fx.engine().start(fx.sh("echo hi").cwd(dataDir.resolve("missing")).build()));
        assertEquals("cwd", e.field());
        assertTrue(e.getMessage().contains("does not exist"));
        assertEquals(List.of(), fx.engine().sessions());
        assertFalse(Files.exists(dataDir.resolve("sessions")));
    }

    @Test
    void listenersAreToldExactlyOnceAndABrokenOneHarmsNobody() throws Exception {
        Session s = fx.engine().start(fx.sh("sleep 0.2; echo done").build());
        List<SessionSnapshot> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        s.addListener(last -> {
            throw new IllegalStateException("a broken listener");
        });
        s.addListener(heard::add);
        SessionSnapshot last = EngineFixture.awaitEnd(s);
        s.addListener(heard::add); // added after the end: told at once, still once
        assertEquals(List.of(last, last), heard);
        assertEquals(SessionStatus.COMPLETED, last.status());
        // It ends only once the listener is gone (a command that ended first would tell it at once).
        Path go = dataDir.resolve("go");
        Session t = fx.engine().start(fx.sh("while [ ! -e '" + go + "' ]; do sleep 0.01; done").build());
        List<SessionSnapshot> never = new ArrayList<>();
        dev.runboard.session.SessionListener l = never::add;
        t.addListener(l);
        t.removeListener(l);
        java.nio.file.Files.createFile(go);
        EngineFixture.awaitEnd(t);
        assertEquals(List.of(), never);
    }

    @Test
    void fiftyConcurrentSessionsAllEndWithTheirOwnOutput() throws Exception {
        List<Session> all = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            all.add(fx.engine().start(fx.sh("for j in 1 2 3; do echo session-" + i + "-$j; done; exit " + (i % 3)).build()));
        }
        for (int i = 0; i < 50; i++) {
            SessionSnapshot s = EngineFixture.awaitEnd(all.get(i));
            assertEquals("session-" + i + "-1\nsession-" + i + "-2\nsession-" + i + "-3\n", s.output());
            assertEquals(i % 3, s.exitCode());
            assertEquals(i % 3 == 0 ? SessionStatus.COMPLETED : SessionStatus.FAILED, s.status());
        }
    }

    @Test
    void stdinIsAPipeKeptOpenForInput() throws Exception {
        Session s = fx.engine().start(fx.sh("read line; echo \"got $line\"").build());
        var in = fx.engine().stdin(s);
        in.write("hello\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        in.flush();
        assertEquals("got hello\n", EngineFixture.awaitEnd(s).output());
        assertNull(fx.engine().stdin(s));
    }

    @Test
    void backgroundGrandchildOutputStillLandsAfterTheDirectChildExits() throws Exception {
        // With a pipe the JDK drains and closes it at the child's exit, and the late line is lost.
        Path marker = dataDir.resolve("late-done");
        SessionSnapshot last = fx.run(fx.sh("(sleep 0.3; echo late-line; touch '" + marker + "') & head -c 3000 /dev/zero | tr '\\0' x; echo")
                .previewBytes(1024).build());
        assertTrue(last.outputTruncated());
        Path artifact = Path.of(last.artifact());
        Await.until(Duration.ofSeconds(10), "the background writer to finish", () -> Files.exists(marker));
        String content = Files.readString(artifact);
        assertTrue(content.endsWith("late-line\n"), "late grandchild output is in the artifact");
        assertEquals(3001 + "late-line\n".length(), Files.size(artifact));
    }
}
