package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wrapper alone, with no runboard JVM watching: it must end a command at its deadline (the
 * hostile tree included) and record how the command ended, with when. Each wrapper is started
 * under {@code setsid}, away from the test's process group, the way it outlives a killed runboard.
 */
class WrapperDeadlineTest {
    /** How late the wrapper may see the end, on a shared, busy machine. */
    private static final long SLACK_MS = 1000;
    private static final Pattern STATUS_LINE = Pattern.compile("(own|killed|timeout) (exit|signal) \\d+ at \\d{13}\n");

    @TempDir
    Path dir;
    private SessionWrapper wrapper;
    private String tag;
    private final List<Process> wrappers = new ArrayList<>();
    private final OsProcesses os = OsProcesses.forThisMachine();

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(os.supportsTreeKill(), "needs Linux /proc");
        Optional<SessionWrapper> installed = SessionWrapper.install(dir.resolve("data"));
        assumeTrue(installed.isPresent(), "needs perl on PATH");
        wrapper = installed.get();
        tag = "RUNBOARD_SESSION=wrapper-test-" + UUID.randomUUID();
    }

    @AfterEach
    void killLeftovers() throws Exception {
        for (Process p : wrappers) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        Await.until(Duration.ofSeconds(10), "the test's processes to be gone", () -> {
            List<Long> left = liveTagged();
            left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            return left.isEmpty();
        });
    }

    /**
     * bin/runboard's early launch: the wrapper is started for a JVM that will adopt it (RUNBOARD_ADOPTER).
     * When that JVM is already gone as the wrapper starts (it could not start at all), the command never
     * runs and the folder bin/runboard made goes, lock and all, as when the JVM dies a moment later.
     */
    @Test
    void aWrapperWhoseAdopterIsAlreadyGoneStartsNothingAndLeavesNoFolder() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("data/sessions/20261204-031500-abcdef"));
        for (String made : List.of("lock", "capture.log", "exit-status.tmp")) {
            Files.createFile(folder.resolve(made));
        }
        Path ran = dir.resolve("ran");
        List<String> argv = new ArrayList<>(wrapper.prefix(folder.resolve("exit-status"), 0, 2000));
        argv.addAll(List.of("sh", "-c", "touch '" + ran + "'"));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectOutput(folder.resolve("capture.log").toFile()).redirectErrorStream(true);
        // Its parent is this JVM: an adopter of any other pid is one that is gone.
        pb.environment().put("RUNBOARD_ADOPTER", Long.toString(ProcessHandle.current().pid() + 1_000_000));
        Process w = pb.start();
        wrappers.add(w);
        assertTrue(w.waitFor(15, TimeUnit.SECONDS), "the wrapper exits at once");
        assertEquals(125, w.exitValue());
        assertFalse(Files.exists(ran), "the command did not run");
        assertFalse(Files.exists(folder), "the folder went with its adopter");
    }

    @Test
    void commandOutlivingItsDeadlineIsEndedByTheWrapperAlone() throws Exception {
        Path status = dir.resolve("status");
        long deadline = System.currentTimeMillis() + 1000;
        Process w = start(status, deadline, 2000, "sleep", "30");

        String line = awaitStatus(status, Duration.ofSeconds(15));

        assertTrue(line.startsWith("timeout signal 15 at "), line);
        ExitStatus exit = ExitStatus.read(status).orElseThrow();
        assertTrue(exit.timedOut());
        assertEquals("TERM", exit.signal());
        assertEquals(143, exit.exitCode());
        long endedAt = exit.endedAt().toEpochMilli();
        assertTrue(endedAt >= deadline && endedAt <= deadline + SLACK_MS,
                "ended " + (endedAt - deadline) + " ms after the deadline");
        assertTrue(w.waitFor(10, TimeUnit.SECONDS), "the wrapper exits once it has recorded the end");
        assertEquals(143, w.exitValue());
    }

    @Test
    void hostileTreeHasNoSurvivorOnceTheStatusIsWritten() throws Exception {
        Path script = dir.resolve("hostile.sh");
        Files.writeString(script, String.join("\n",
                "bash -c 'trap \"\" TERM; sleep 60' &                               # ignores TERM",
                "bash -c 'trap \"sleep 60 &\" TERM; while :; do sleep 0.05; done' &  # forks a new child when TERMed",
                "(setsid sh -c 'sleep 60 & exec sleep 60' &)                        # double-forked daemon, own session",
                "echo ready",
                "wait",
                ""));
        Path status = dir.resolve("status");
        long grace = 500;
        long deadline = System.currentTimeMillis() + 4000;
        Process w = start(status, deadline, grace, "sh", script.toString());

        Await.until(Duration.ofSeconds(4), "the hostile tree to be up, the daemons outside the command's group", () ->
                Files.exists(dir.resolve("command")) && liveTagged().size() >= 6 && liveTagged().stream()
                        .filter(pid -> pgid(pid) != commandGroup() && pid != w.pid()).count() >= 2);
        assertTrue(System.currentTimeMillis() < deadline, "the tree was up only after the deadline: the test proves nothing");
        assertFalse(Files.exists(status));

        String line = awaitStatus(status, Duration.ofSeconds(20));

        List<Long> left = liveTagged();
        left.remove(Long.valueOf(w.pid())); // the wrapper itself, exiting right after the rename
        assertEquals(List.of(), left, "processes of the session alive after the wrapper recorded the timeout");
        assertTrue(line.startsWith("timeout "), line);
        assertTrue(Files.getLastModifiedTime(status).toMillis() >= deadline + grace - 20,
                "the TERM-ignorer kept the wrapper waiting the whole grace before KILL");
        assertTrue(w.waitFor(10, TimeUnit.SECONDS));
        assertEquals(List.of(), liveTagged());

        // What the wrapper did reads as a kill report: everything TERMed once, the TERM-ignorer KILLed, no survivor.
        var report = WrapperReport.parse(Files.readString(status), "timeout after 4 s", commandGroup(), os::isAlive).report();
        // The looping handler's "sleep 0.05" comes and goes, so the tree has 5 or 6 processes at the deadline.
        assertTrue(report.signalled().size() >= 5, "TERM went to the whole tree: " + report.signalled());
        assertTrue(report.signalled().stream().filter(p -> p.command().equals("sleep 60")).count() >= 2,
                "the TERM-ignorer's sleep and the daemon's, outside the group, were TERMed too: " + report.signalled());
        assertTrue(report.killedAfterGrace().stream().anyMatch(p -> p.command().startsWith("bash -c trap \"\" TERM")
                || p.command().startsWith("sleep")), "KILL after the grace: " + report.killedAfterGrace());
        assertTrue(report.escalatedToKill());
        assertTrue(report.clean(), "no survivor: " + report.survivors());
    }

    @Test
    void exitCodesAndSignalDeathsAreRecordedWithTheirEndTime() throws Exception {
        long farDeadline = System.currentTimeMillis() + 60_000;
        for (long deadline : new long[] {0, farDeadline}) {
            long before = System.currentTimeMillis();
            Path exited = dir.resolve("exited-" + deadline);
            Process w = start(exited, deadline, 1000, "sh", "-c", "exit 7");
            String line = awaitStatus(exited, Duration.ofSeconds(10));
            assertTrue(line.startsWith("own exit 7 at "), line);
            ExitStatus status = ExitStatus.read(exited).orElseThrow();
            assertEquals(7, status.exitCode());
            assertFalse(status.timedOut());
            assertTrue(!status.endedAt().isBefore(Instant.ofEpochMilli(before))
                    && !status.endedAt().isAfter(Instant.now()), status.toString());
            assertTrue(w.waitFor(10, TimeUnit.SECONDS));
            assertEquals(7, w.exitValue());

            Path killed = dir.resolve("killed-" + deadline);
            w = start(killed, deadline, 1000, "sh", "-c", "kill -9 $$");
            line = awaitStatus(killed, Duration.ofSeconds(10));
            assertTrue(line.startsWith("own signal 9 at "), line);
            status = ExitStatus.read(killed).orElseThrow();
            assertEquals("KILL", status.signal());
            assertEquals(137, status.exitCode());
            assertFalse(status.timedOut());
            assertTrue(w.waitFor(10, TimeUnit.SECONDS));
            assertEquals(137, w.exitValue());
        }
    }

    @Test
    void commandThatCannotRunGetsTheShellsCodesAndTheCommandStartsWithNoIgnoredSignal() throws Exception {
        Path missing = dir.resolve("missing");
        start(missing, 0, 0, dir.resolve("no-such-program").toString());
        assertTrue(awaitStatus(missing, Duration.ofSeconds(10)).startsWith("own exit 127 at "));

        Path notExecutable = dir.resolve("not-executable");
        Files.writeString(dir.resolve("plain.txt"), "not a program\n");
        start(notExecutable, 0, 0, dir.resolve("plain.txt").toString());
        assertTrue(awaitStatus(notExecutable, Duration.ofSeconds(10)).startsWith("own exit 126 at "));
        assertTrue(Files.readString(dir.resolve("out-1.txt")).contains("runboard: cannot run "));

        Path sigIgn = dir.resolve("sig-ign");
        start(sigIgn, System.currentTimeMillis() + 60_000, 1000, "grep", "SigIgn", "/proc/self/status");
        awaitStatus(sigIgn, Duration.ofSeconds(10));
        String sigIgnLine = Files.readString(dir.resolve("out-2.txt")).strip();
        long mask = Long.parseLong(sigIgnLine.substring("SigIgn:".length()).strip(), 16);
        assertEquals(0, mask & 0x7FFFFFFFL, "none of signals 1-31 ignored (32, 33: glibc's own): " + sigIgnLine);
    }

    /**
     * runboard no longer puts {@code env --default-signal} in front of the wrapper: the wrapper itself
     * starts the command with every signal at its default, whatever it was started with ignored
     * (a runboard under nohup, or in a background job of a script, has HUP or INT ignored).
     */
    @Test
    void theCommandStartsWithNoIgnoredSignalWhenTheWrapperInheritedIgnoredOnes() throws Exception {
        Path status = dir.resolve("ignored");
        List<String> argv = new ArrayList<>(List.of("setsid", "bash", "-c",
                "trap '' HUP INT QUIT PIPE TERM USR1 USR2 TSTP TTIN TTOU SIGRTMIN+3 SIGRTMAX; exec \"$@\"", "bash"));
        argv.addAll(wrapper.prefix(status, 0, 0));
        argv.addAll(List.of("sh", "-c", "grep SigIgn /proc/$PPID/status; grep SigIgn /proc/self/status"));
        Path out = dir.resolve("ignored.txt");
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).redirectOutput(out.toFile());
        pb.environment().put(tag.substring(0, tag.indexOf('=')), tag.substring(tag.indexOf('=') + 1));
        wrappers.add(pb.start());
        awaitStatus(status, Duration.ofSeconds(10));
        List<String> lines = Files.readAllLines(out);
        assertEquals(2, lines.size(), "the wrapper's mask, then the command's: " + lines);
        long wrapperMask = Long.parseUnsignedLong(lines.get(0).substring("SigIgn:".length()).strip(), 16);
        long commandMask = Long.parseUnsignedLong(lines.get(1).substring("SigIgn:".length()).strip(), 16);
        // (the wrapper handles HUP, INT, TERM and the like itself; PIPE and TSTP it leaves as it found them)
        assertTrue((wrapperMask & (1L << (13 - 1))) != 0 && (wrapperMask & (1L << (20 - 1))) != 0,
                "the wrapper did start with PIPE and TSTP ignored (else this test tests nothing): " + lines.get(0));
        // 32 and 33 are glibc's own, which no program can set (env could not either)
        assertEquals(0, commandMask & ~(3L << 31), "no signal ignored in the command, real-time ones included: " + lines.get(1));
    }

    @Test
    void runningAsRootTheDeadlineNeverSignalsAnotherUsersProcess() throws Exception {
        assumeTrue(new LinuxProcesses().credentials().effectiveUid() == 0, "needs root to start a process of another uid");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv(1)");
        Path status = dir.resolve("status-root");
        long deadline = System.currentTimeMillis() + 2500;
        Process w = start(status, deadline, 300, "sh", "-c",
                "setpriv --reuid=65534 --regid=65534 --clear-groups sleep 60 & echo $! > " + dir.resolve("nobody.pid")
                        + "; sleep 60 & wait");
        long nobody = Await.pidFile(dir.resolve("nobody.pid"), Duration.ofSeconds(10));
        Await.until(Duration.ofSeconds(10), "the other user's sleep",
                () -> LinuxProcesses.readStat(nobody).map(p -> p.comm().equals("sleep")).orElse(false));
        ProcInfo before = LinuxProcesses.readStat(nobody).orElseThrow();
        try {
            assertEquals(commandGroup(), before.pgid(), "it is in the command's group");
            assertTrue(awaitStatus(status, Duration.ofSeconds(20)).startsWith("timeout "));
            ProcInfo after = LinuxProcesses.readStat(nobody).orElseThrow();
            assertEquals(before.startTicks(), after.startTicks(), "the other user's process is the same one, alive");
            assertEquals('S', after.state(), "and was neither stopped nor continued: never signalled");
            List<Long> ours = liveTagged();
            ours.remove(Long.valueOf(nobody));
            ours.remove(Long.valueOf(w.pid()));
            assertEquals(List.of(), ours, "everything of ours is gone");
            // The deadline's report says so as a kill's does: the other user's process, alive, under not_ours.
            var report = WrapperReport.parse(Files.readString(status), "timeout", commandGroup(), os::isAlive).report();
            assertEquals(List.of(nobody), report.notOurs().stream().map(dev.runboard.session.ProcessRef::pid).toList(),
                    report.toString());
            assertEquals(List.of(nobody), report.survivors().stream().map(dev.runboard.session.ProcessRef::pid).toList());
        } finally {
            ProcessHandle.of(nobody).ifPresent(ProcessHandle::destroyForcibly); // the test's own process, another uid
        }
    }

    @Test
    void commandWithNoDeadlineIsNeverKilled() throws Exception {
        Path status = dir.resolve("status");
        long started = System.currentTimeMillis();
        start(status, 0, 0, "sh", "-c", "sleep 2; exit 5");

        String line = awaitStatus(status, Duration.ofSeconds(15));

        assertTrue(line.startsWith("own exit 5 at "), line);
        ExitStatus exit = ExitStatus.read(status).orElseThrow();
        assertFalse(exit.timedOut());
        assertTrue(exit.endedAt().toEpochMilli() >= started + 2000);
    }

    @Test
    void oldAndNewStatusLinesAreParsed() throws Exception {
        assertEquals(Optional.of(ExitStatus.exited(3)), ExitStatus.parse("exit 3\n"));
        ExitStatus oldSignal = ExitStatus.parse("signal 15").orElseThrow();
        assertEquals("TERM", oldSignal.signal());
        assertEquals(143, oldSignal.exitCode());
        assertFalse(oldSignal.timedOut());
        assertNull(oldSignal.endedAt());

        assertEquals(Optional.of(ExitStatus.exited(0).withEndedAt(Instant.ofEpochMilli(1764547200123L))),
                ExitStatus.parse("exit 0 at 1764547200123\n"));
        ExitStatus timedOut = ExitStatus.parse("timeout signal 15 at 1764547200456").orElseThrow();
        assertEquals(ExitStatus.signalled(15).withCause(ExitStatus.Cause.TIMEOUT).withEndedAt(Instant.ofEpochMilli(1764547200456L)),
                timedOut);
        assertEquals(Optional.of(ExitStatus.exited(1).withCause(ExitStatus.Cause.TIMEOUT)), ExitStatus.parse("timeout exit 1"));

        for (String bad : List.of("", "exit", "exit x", "quit 1", "exit 1 at", "exit 1 on 5", "timeout", "timeout 1",
                "exit 1 at 5 6", "exit 1 at soon")) {
            assertEquals(Optional.empty(), ExitStatus.parse(bad), bad);
        }

        Path file = dir.resolve("old-status");
        Files.writeString(file, "exit 2\n", StandardCharsets.US_ASCII);
        assertEquals(Optional.of(ExitStatus.exited(2)), ExitStatus.read(file));
        assertEquals(Optional.empty(), ExitStatus.read(dir.resolve("never-written")));
    }

    private Process start(Path status, long deadline, long grace, String... command) throws Exception {
        List<String> argv = new ArrayList<>(List.of("setsid"));
        argv.addAll(wrapper.prefix(status, deadline, grace));
        argv.addAll(List.of(command));
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(dir.resolve("out-" + wrappers.size() + ".txt").toFile());
        int eq = tag.indexOf('=');
        pb.environment().put(tag.substring(0, eq), tag.substring(eq + 1));
        Process p = pb.start();
        wrappers.add(p);
        return p;
    }

    /**
     * The status file's first line once it appears (it is written once, by rename, so it is
     * complete); after a timeout the kill's facts follow it, each a line of its own kind.
     */
    private static String awaitStatus(Path status, Duration limit) throws Exception {
        Await.until(limit, "the wrapper to write " + status.getFileName(), () -> Files.exists(status));
        List<String> lines = Files.readAllLines(status, StandardCharsets.UTF_8);
        String line = lines.get(0) + "\n";
        assertTrue(STATUS_LINE.matcher(line).matches(), "status line: '" + line + "'");
        for (String fact : lines.subList(1, lines.size())) {
            assertTrue(line.startsWith("timeout ") && fact.matches(
                    "((requested|term|done)_at \\d+|signal [A-Z]+|grace_ms \\d+|(term|kill|escaped|survivor|not_ours) \\d+ \\d+ ?.*)"),
                    "kill fact after a timeout: '" + fact + "'");
        }
        return line;
    }

    private List<Long> liveTagged() {
        List<Long> out = new ArrayList<>();
        for (ProcInfo p : os.snapshot().all()) {
            if (p.alive() && os.hasEnvEntry(p.pid(), tag)) {
                out.add(p.pid());
            }
        }
        return out;
    }

    /** The command's group, as the (last started) wrapper named it. */
    private long commandGroup() {
        return WrappedCommand.read(dir.resolve("command")).orElseThrow().pid();
    }

    private static long pgid(long pid) {
        return LinuxProcesses.readStat(pid).map(ProcInfo::pgid).orElse(-1L);
    }
}
