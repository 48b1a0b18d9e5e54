package dev.runboard.remote;

import static dev.runboard.remote.RemoteEngineFixture.HOST;
import static dev.runboard.remote.RemoteEngineFixture.LONG;
import static dev.runboard.remote.RemoteEngineFixture.awaitEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import dev.runboard.process.EngineFixture;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.KillReport;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.Session;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Sessions on a real sshd on this machine, as a second local user: the "remote" host is rb-remote. */
class RemoteSessionTest {
    @RegisterExtension
    static final SshdExtension SSHD = new SshdExtension();

    @TempDir
    Path dataDir;
    RemoteEngineFixture fx;
    SessionEngine engine;

    @BeforeEach
    void setUp() throws Exception {
        fx = new RemoteEngineFixture(SSHD.get(), dataDir);
        engine = fx.engine;
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void exitCodesAndSignalsAreTheCommandsOwn() throws Exception {
        SessionSnapshot seven = awaitEnd(engine.start(fx.sh("echo on $(id -un); exit 7").build()));
        assertEquals(SessionStatus.FAILED, seven.status());
        assertEquals(7, seven.exitCode());
        assertEquals("on " + SSHD.get().user + "\n", seven.output());
        SessionSnapshot ok = awaitEnd(engine.start(fx.sh("pwd").cwd(Path.of("/")).build()));
        assertEquals(SessionStatus.COMPLETED, ok.status());
        assertEquals("/\n", ok.output());
    }

    @Test
    void outputRulesApplyAndWhatNeedsTheHostsProcIsRefused() throws Exception {
        SessionSpec failing = fx.sh("echo ok; echo 'FATAL: disk'; exit 0").watch(dev.runboard.session.WatchSpec.NONE.withRules(
                List.of(new dev.runboard.session.OutputRule("FATAL", dev.runboard.session.OutputRule.Action.FAIL)))).build();
        SessionSnapshot end = awaitEnd(engine.start(failing));
        assertEquals(SessionStatus.FAILED, end.status(), "a --fail-on rule fails a remote session too");
        InvalidSpecException pty = assertThrows(InvalidSpecException.class, () -> engine.start(fx.sh("true").pty(true).build()));
        assertTrue(pty.getMessage().contains("another host"), pty.getMessage());
    }

    /** The hang watchdog reads the output mirrored here; the guards the tree's usage the host's poll samples. */
    @Test
    void theHangWatchdogAndTheRssGuardWatchARemoteSession() throws Exception {
        dev.runboard.session.WatchSpec warn = dev.runboard.session.WatchSpec.NONE
                .withHang(Duration.ofSeconds(1), dev.runboard.session.WatchSpec.HangAction.WARN);
        SessionSnapshot quiet = awaitEnd(engine.start(fx.sh("echo a; sleep 3; echo b").watch(warn).build()));
        assertEquals(SessionStatus.COMPLETED, quiet.status(), "a warning, not a kill: " + quiet.reason());
        assertTrue(quiet.events().stream().anyMatch(e -> e.kind().equals(SessionEvent.HANG)
                && e.message().contains("no output for 1 s")), "a hang event: " + quiet.events());
        assertEquals("a\nb\n", quiet.output());

        dev.runboard.session.WatchSpec kill = dev.runboard.session.WatchSpec.NONE
                .withHang(Duration.ofSeconds(1), dev.runboard.session.WatchSpec.HangAction.KILL);
        SessionSnapshot hung = awaitEnd(engine.start(fx.sh("echo a; sleep 60; echo never").watch(kill).build()));
        assertEquals(SessionStatus.KILLED, hung.status());
        assertTrue(hung.reason().contains("hang watchdog"), hung.reason());

        // perl on the host fills 200 MiB; the guard's limit is 100 MiB.
        dev.runboard.session.WatchSpec guard = dev.runboard.session.WatchSpec.NONE.withMaxRss(100L << 20);
        SessionSnapshot runaway = awaitEnd(engine.start(fx.sh("perl -e '$x=\"x\"; $x x= (200<<20); print \"holding\\n\"; sleep 600'")
                .watch(guard).build()));
        assertEquals(SessionStatus.KILLED, runaway.status());
        assertTrue(runaway.reason().contains("runaway guard: RSS") && runaway.reason().contains("100 MiB"), runaway.reason());
        assertTrue(runaway.events().stream().anyMatch(e -> e.kind().equals(SessionEvent.GUARD)), runaway.events().toString());
    }

    @Test
    void theDeadlineIsHeldOnTheHost() throws Exception {
        Session s = engine.start(fx.sh("echo started; sleep 60").timeout(Duration.ofSeconds(1)).grace(Duration.ofMillis(500)).build());
        SessionSnapshot end = awaitEnd(s);
        assertEquals(SessionStatus.TIMEOUT, end.status(), end.reason());
        assertEquals("started\n", end.output());
    }

    @Test
    void stdinReachesTheRemoteCommandAndClosingItIsEndOfInput() throws Exception {
        Session s = engine.start(fx.sh("read line; echo got:$line; read rest; echo \"rest:$rest\"").build());
        java.io.OutputStream in = engine.stdin(s);
        in.write("hello\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        in.flush();
        Await.until(LONG, "the command to echo its input", () -> s.snapshot().output().contains("got:hello"));
        assertEquals(SessionStatus.RUNNING, s.status(), "it waits for more input: no end of input between writes");
        in.close();
        SessionSnapshot end = awaitEnd(s);
        assertEquals(SessionStatus.COMPLETED, end.status(), end.reason());
        assertEquals("got:hello\nrest:\n", end.output(), "the second read met the end of input");
    }

    @Test
    void aWrapperKilledWithItsStatusLostEndsUnknownWithoutAnExitCode() throws Exception {
        Session s = engine.start(fx.sh("echo started; sleep 600").build());
        Await.until(LONG, "the first line", () -> s.snapshot().outputBytes() > 0);
        // SIGKILL to the wrapper and its command (its own group, below the wrapper): nothing records how they ended.
        assertEquals(0, SshdFixture.run(List.of("kill", "-s", "KILL", "--", "-" + s.pid(), "-" + commandGroup(s))));
        Files.deleteIfExists(sessionFolder(s).resolve("status"));
        SessionSnapshot end = awaitEnd(s);
        assertEquals(SessionStatus.UNKNOWN, end.status(), end.reason());
        assertNull(end.exitCode(), "no made-up exit code");
        assertTrue(end.reason().startsWith("exit status lost on " + HOST + ": its wrapper (pid " + s.pid() + ") is gone"),
                end.reason());
        assertEquals("started\n", end.output(), "the output up to the loss is kept");
    }

    @Test
    void aSessionFolderDeletedOnTheHostEndsUnknown() throws Exception {
        Session s = engine.start(fx.sh("echo started; sleep 600").build());
        Await.until(LONG, "the first line", () -> s.snapshot().outputBytes() > 0);
        long command = commandGroup(s);
        assertEquals(0, SshdFixture.run(List.of("rm", "-rf", sessionFolder(s).toString())));
        SessionSnapshot end = awaitEnd(s);
        assertEquals(SessionStatus.UNKNOWN, end.status(), end.reason());
        assertNull(end.exitCode(), "no made-up exit code");
        assertTrue(end.reason().startsWith("exit status lost on " + HOST + ": the session's folder is gone"), end.reason());
        SshdFixture.run(List.of("kill", "-s", "KILL", "--", "-" + s.pid(), "-" + command)); // still running there, no longer followed
    }

    /** The command's process group on the host, as its wrapper named it there. */
    private long commandGroup(Session s) throws Exception {
        Path file = sessionFolder(s).resolve("command");
        Await.until(LONG, "the wrapper to name its command", () -> Files.exists(file));
        return Long.parseLong(Files.readString(file).strip().split(" ")[0]);
    }

    /** Where the session's files are on the "remote" (the test runs as root or as the remote user: it may reach them). */
    private Path sessionFolder(Session s) throws Exception {
        return SSHD.get().home().resolve(".cache/runboard-remote/" + fx.remote.clientId() + "/s/" + s.id());
    }

    @Test
    void theHelpersFilesOnTheHostAreItsUsersAloneWhateverTheUmask() throws Exception {
        Session s = engine.start(fx.sh("sleep 30").build());
        Path folder = sessionFolder(s);
        Await.until(LONG, "the session's files on the host", () -> Files.exists(folder.resolve("command")));
        for (String name : List.of("out", "pid", "status.tmp", "command")) {
            Path f = folder.resolve(name);
            if (Files.exists(f)) {
                String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
                assertTrue(mode.matches("rw-------|r--------"), name + " is " + mode);
            }
        }
        engine.kill(s, Signal.KILL, Duration.ZERO).get();
        awaitEnd(s);
    }

    @Test
    void descendantsThatEscapeByEveryMeansDieOnTheHostByAKillAndByTheDeadline() throws Exception {
        // The same wrapper on the host: the same subreaper, the same kill (docs/PROCESS-TREE.md).
        for (boolean byDeadline : new boolean[] {false, true}) {
            Path work = Files.createTempDirectory(SSHD.get().dir, "escapees", PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwxrwxrwx")));
            Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx")); // the remote user writes pid files
            try (InputStream in = getClass().getResourceAsStream("/trees/escapees.sh")) {
                Files.copy(in, work.resolve("escapees.sh"));
            }
            Files.setPosixFilePermissions(work.resolve("escapees.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
            SessionSpec.Builder spec = fx.sh("sh escapees.sh").cwd(work).grace(Duration.ofMillis(300));
            Session s = engine.start((byDeadline ? spec.timeout(Duration.ofSeconds(4)) : spec).build());
            List<Long> escapees = new ArrayList<>();
            for (String name : List.of("plain", "group", "session", "ghost", "orphan")) {
                escapees.add(Await.pidFile(work.resolve("escapee-" + name + ".pid"), LONG));
            }
            SessionSnapshot end;
            if (byDeadline) {
                end = awaitEnd(s);
                assertEquals(SessionStatus.TIMEOUT, end.status(), end.reason());
            } else {
                KillReport report = engine.kill(s, Signal.TERM, Duration.ofMillis(300)).get();
                assertEquals(List.of(), report.survivors(), report.summary());
                assertTrue(report.killedAfterGrace().stream().map(ProcessRef::pid).toList().containsAll(escapees),
                        "each ignored TERM and got KILL: " + report);
                end = awaitEnd(s);
                assertEquals(SessionStatus.KILLED, end.status(), end.reason());
            }
            for (long pid : escapees) {
                Await.until(Duration.ofSeconds(5), pid + " gone from the host's /proc", () -> !Files.exists(Path.of("/proc/" + pid)));
            }
        }
    }

    @Test
    void aHostileTreeLeavesNoSurvivorsOnTheHost() throws Exception {
        Path scripts = Files.createTempDirectory(SSHD.get().dir, "trees", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        for (String name : List.of("tree.sh", "nasty.sh")) {
            try (InputStream in = getClass().getResourceAsStream("/trees/" + name)) {
                Files.copy(in, scripts.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.setPosixFilePermissions(scripts.resolve(name), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Session s = engine.start(fx.sh("sh " + scripts.resolve("nasty.sh")).build());
        Await.until(LONG, "the hostile tree to grow on the remote", () -> EngineFixture.liveTagged(s).size() >= 40);
        int uid = SSHD.get().uid();
        KillReport report = engine.kill(s, Signal.TERM, Duration.ofSeconds(1)).get();
        assertEquals(List.of(), report.survivors(), report.summary());
        assertEquals(List.of(), EngineFixture.liveTagged(s), "every process of the session is gone from the host's /proc");
        assertTrue(report.signalled().size() >= 40, report.summary());
        assertEquals(SessionStatus.KILLED, awaitEnd(s).status());
        assertTrue(uid >= 0);
    }

    @Test
    void failuresAreOneLineNamingTheHostAndNothingStarts() throws Exception {
        assertFailure("rb-unreachable", "unreachable");
        assertFailure("rb-badauth", "refused the login");
        assertFailure("rb-badkey", "host key");
        assertFailure("rb-noperl", "no perl");
        InvalidSpecException cwd = assertThrows(InvalidSpecException.class, () -> {
            Session s = engine.start(fx.sh("true").cwd(Path.of("/no/such/folder")).build());
            if (s.status() == SessionStatus.FAILED) {
                throw new InvalidSpecException("host", s.snapshot().reason());
            }
        });
        assertTrue(cwd.getMessage().contains("/no/such/folder"), cwd.getMessage());
    }

    @Test
    void aFullDiskOnTheHostIsRefusedBeforeAnythingStarts() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "a small full file system needs mount (root): skipped");
        fx.remote.prepare(HOST); // brings the helper, and makes the sessions' folder
        Path sessions = SSHD.get().home().resolve(".cache/runboard-remote/" + fx.remote.clientId() + "/s");
        assertEquals(0, SshdFixture.run(List.of("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700,uid=" + SSHD.get().uid(),
                "tmpfs", sessions.toString())), "mount a 1 MiB file system on the host's sessions folder");
        try {
            SshdFixture.run(List.of("sh", "-c", "cat /dev/zero > " + sessions.resolve("filler")));
            assertFailure(HOST, "disk is full");
            // A new runboard on the data dir finds the helper current and asks for room in the same call.
            try (SshSessions fresh = new SshSessions(dataDir, SSHD.get().config)) {
                InvalidSpecException e = assertThrows(InvalidSpecException.class, () -> fresh.prepare(HOST));
                assertTrue(e.getMessage().contains(HOST) && e.getMessage().contains("disk is full"), e.getMessage());
            }
        } finally {
            SshdFixture.run(List.of("umount", sessions.toString()));
        }
    }

    private void assertFailure(String host, String words) {
        InvalidSpecException e = assertThrows(InvalidSpecException.class,
                () -> engine.start(fx.sh("true").host(host).build()));
        assertTrue(e.getMessage().contains(host) && e.getMessage().contains(words), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertEquals(List.of(), engine.sessions().stream().filter(x -> host.equals(x.spec().host())).toList(),
                "nothing was started");
    }


}
