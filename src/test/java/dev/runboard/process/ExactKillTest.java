package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.OsProcesses.Delivery;
import dev.runboard.session.KillReport;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.store.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills are exact: every process of the session is gone afterwards (KILL reaches the ones that left
 * the group, tagged or not), the report's survivors are exactly those /proc still shows alive, and
 * nothing that is not the session's, or not runboard's user's, is ever signalled.
 */
class ExactKillTest {
    private static final LinuxProcesses LINUX = new LinuxProcesses();

    @TempDir
    Path dataDir;
    EngineFixture fx;
    /** Processes a test started outside any session's tag (pid, start ticks): ended in tearDown if still there. */
    final List<long[]> strays = new ArrayList<>();

    @BeforeEach
    void setUp() {
        fx = new EngineFixture(dataDir);
    }

    @AfterEach
    void tearDown() {
        try {
            for (long[] p : strays) {
                if (same(p[0], p[1])) {
                    ProcessHandle.of(p[0]).ifPresent(ProcessHandle::destroyForcibly); // our own test's process, any uid
                }
            }
            for (long[] p : strays) {
                Await.until(EngineFixture.WAIT, "test process " + p[0] + " to end", () -> !aliveAs(p[0], p[1]));
            }
        } finally {
            fx.close();
        }
    }

    @Test
    void termIgnorersThatLeftTheGroupAreKilledAfterTheGraceTaggedOrNot() throws Exception {
        Path script = dataDir.resolve("escape.sh");
        Files.writeString(script, """
                # Two TERM-ignorers leave the group (setsid): one keeps the session's tag, one drops it.
                setsid sh -c 'trap "" TERM; echo $$ > tagged.pid; while :; do sleep 1; done' &
                setsid env -u RUNBOARD_SESSION sh -c 'trap "" TERM; echo $$ > untagged.pid; while :; do sleep 1; done' &
                wait
                """);
        Session s = fx.engine().start(fx.sh("sh " + script).build());
        long tagged = awaitPidFile("tagged.pid");
        long untagged = awaitPidFile("untagged.pid");
        long untaggedTicks = LinuxProcesses.readStat(untagged).orElseThrow().startTicks();
        strays.add(new long[] {untagged, untaggedTicks}); // no tag: EngineFixture would not see it left behind
        for (long pid : List.of(tagged, untagged)) {
            Await.until(EngineFixture.WAIT, pid + " to lead a group of its own", () -> LinuxProcesses.readStat(pid)
                    .map(p -> p.pgid() == pid && p.pgid() != s.pid()).orElse(false));
        }
        assertFalse(LINUX.hasEnvEntry(untagged, s.tag()), "the untagged one dropped the tag");

        KillReport report = fx.engine().kill(s, Signal.TERM, Duration.ofMillis(300)).get();

        assertEquals(List.of(), report.survivors(), report.summary());
        assertTrue(report.escalatedToKill(), report.summary());
        List<Long> killedLate = pids(report.killedAfterGrace());
        List<Long> swept = pids(report.sweptByTag());
        assertTrue(killedLate.contains(untagged), "only the tree seen before the kill knows the untagged one: "
                + report.killedAfterGrace());
        assertTrue(killedLate.contains(tagged) || swept.contains(tagged), report.toString());
        assertTrue(pids(report.signalled()).containsAll(List.of(tagged, untagged)), "both got the TERM");
        Await.until(Duration.ofSeconds(5), "both escapees gone from /proc",
                () -> !alive(tagged) && !aliveAs(untagged, untaggedTicks));
        assertEquals(List.of(), EngineFixture.liveTagged(s));
        assertEquals(SessionStatus.KILLED, EngineFixture.awaitEnd(s).status());
        assertEquals(List.of(), report.notOurs());
    }

    @Test
    void anotherUsersProcessIsNeverSignalledAndIsReportedAsSurvivorAndNotOurs() throws Exception {
        if (LINUX.credentials().effectiveUid() != 0) {
            System.out.println("ExactKillTest: skipped the other-user test: not running as root, so this test cannot"
                    + " start a process of another user");
            Assumptions.abort("needs root to start a process of another uid");
        }
        if (Stream.of("/usr/bin/setpriv", "/bin/setpriv").noneMatch(p -> Files.isExecutable(Path.of(p)))) {
            System.out.println("ExactKillTest: skipped the other-user test: setpriv(1) is not installed");
            Assumptions.abort("needs setpriv(1)");
        }
        Session s = fx.engine().start(fx.sh("setpriv --reuid=65534 --regid=65534 --clear-groups sleep 60 &"
                + " echo $! > nobody.pid; sleep 60 & wait").build());
        long nobody = awaitPidFile("nobody.pid");
        Await.until(EngineFixture.WAIT, "setpriv to become sleep as uid 65534",
                () -> LinuxProcesses.readStat(nobody).map(p -> p.comm().equals("sleep") && p.state() == 'S').orElse(false)
                        && uids(nobody).map(u -> u[0] == 65534 && u[2] == 65534).orElse(false));
        ProcInfo before = LinuxProcesses.readStat(nobody).orElseThrow();
        strays.add(new long[] {nobody, before.startTicks()});
        assertTrue(LINUX.hasEnvEntry(nobody, s.tag()), "it carries the session's tag");
        assertEquals(fx.engine().commandGroup(s), before.pgid(), "it is in the command's group");
        assertFalse(LINUX.isOurs(nobody));
        Await.until(EngineFixture.WAIT, "the session's own sleep", () -> EngineFixture.liveTagged(s).size() >= 4);

        KillReport report = fx.engine().kill(s, Signal.TERM, Duration.ofMillis(300)).get();

        // Decided: a process of another user is the session's but never runboard's to signal. It is
        // listed in not_ours (why it was left alone) and, being alive, in survivors (what is left).
        ProcInfo after = LinuxProcesses.readStat(nobody).orElseThrow();
        assertEquals(before.startTicks(), after.startTicks(), "the same process");
        assertTrue(after.alive(), "never signalled: TERM or KILL would have ended sleep");
        assertEquals(before.state(), after.state(), "its state unchanged (no STOP either)");
        assertEquals(List.of(nobody), pids(report.notOurs()), report.toString());
        assertEquals(List.of(nobody), pids(report.survivors()), "survivors are exactly the live ones: " + report);
        assertFalse(pids(report.signalled()).contains(nobody));
        assertFalse(pids(report.killedAfterGrace()).contains(nobody));
        assertFalse(report.clean());
        assertTrue(report.summary().contains("1 survivor (1 process of another user left alone)"), report.summary());
        // ...but for the wrapper, which holds what the command left behind until it has gone (it reaps it).
        List<Long> left = new ArrayList<>(EngineFixture.liveTagged(s));
        left.remove(s.pid());
        assertEquals(List.of(nobody), left, "everything of ours is gone");
        assertFalse(LINUX.signal(nobody, Signal.TERM), "the plain per-pid signal refuses it too");
        assertEquals(Delivery.NOT_OURS, LINUX.signal(nobody, before.startTicks(), Signal.TERM));
        assertTrue(aliveAs(nobody, before.startTicks()));
        assertEquals(SessionStatus.KILLED, EngineFixture.awaitEnd(s).status());
    }

    @Test
    void aStaleLeaderPidIsNeverSignalled() throws Exception {
        // An unrelated process that leads its own group, with a child: what a reused pid can name.
        Process stranger = new ProcessBuilder("setsid", "sh", "-c", "sleep 60 & wait")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        long pid = stranger.pid();
        try {
            Await.until(EngineFixture.WAIT, "the stranger and its child to settle", () -> LinuxProcesses.readStat(pid)
                    .map(p -> p.pgid() == pid && p.comm().equals("sh") && p.state() == 'S').orElse(false)
                    && LINUX.snapshot().descendantsOf(pid).stream().anyMatch(c -> LinuxProcesses.readStat(c)
                            .map(p -> p.comm().equals("sleep") && p.state() == 'S').orElse(false)));
            ProcInfo leader = LinuxProcesses.readStat(pid).orElseThrow();
            long child = LINUX.snapshot().descendantsOf(pid).iterator().next();
            ProcInfo childBefore = LinuxProcesses.readStat(child).orElseThrow();
            strays.add(new long[] {child, childBefore.startTicks()});
            long staleTicks = leader.startTicks() - 1; // the session's leader had this pid, and started earlier

            assertEquals(Delivery.REUSED, LINUX.signalGroup(pid, staleTicks, Signal.TERM));
            assertEquals(Delivery.REUSED, LINUX.signal(pid, staleTicks, Signal.KILL));
            assertEquals(Delivery.REUSED, LINUX.signal(child, childBefore.startTicks() + 1, Signal.KILL));
            // The one kill, without a wrapper (its pid names the stranger now): the kill mode a dead wrapper's session gets.
            SessionWrapper wrapper = SessionWrapper.install(dataDir.resolve("stale")).orElseThrow();
            Path folder = Files.createDirectories(dataDir.resolve("stale/session"));
            Process kill = new ProcessBuilder(wrapper.killCommand(folder.resolve("exit-status"), pid, staleTicks, "TERM", 200,
                    "killed", "RUNBOARD_SESSION=stale-" + System.nanoTime(), java.util.Map.of()))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String said = new String(kill.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, kill.waitFor());
            KillReport report = WrapperReport.parse(said, "test", pid, LINUX::isAlive).report();

            assertEquals(List.of(), report.signalled(), report.toString());
            assertEquals(List.of(), report.killedAfterGrace());
            assertEquals(List.of(), report.sweptByTag());
            assertEquals(List.of(), report.survivors(), "nothing of the session is left: the stranger is not the session's");
            assertFalse(report.escalatedToKill());
            assertTrue(report.notes().stream().anyMatch(n -> n.contains("process group " + pid + " was left alone")),
                    report.notes().toString());
            assertTrue(report.summary().contains("was left alone"), report.summary());
            for (ProcInfo p : List.of(leader, childBefore)) {
                ProcInfo now = LinuxProcesses.readStat(p.pid()).orElseThrow();
                assertTrue(now.alive() && now.startTicks() == p.startTicks(), "never signalled: " + p);
                assertEquals(p.state(), now.state());
            }
            assertTrue(stranger.isAlive());
        } finally {
            long ticks = LINUX.startTicks(pid);
            if (stranger.isAlive() && ticks != 0) {
                LINUX.signalGroup(pid, ticks, Signal.KILL);
            }
            stranger.destroyForcibly();
            stranger.waitFor();
        }
    }

    @Test
    void aProcessIsSignalledThroughAPidfdOnlyWhileItHasTheStartTimeItWasSeenWith() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            long pid = sleep.pid();
            long ticks = LINUX.startTicks(pid);
            assertTrue(ticks > 0);
            if (LINUX.usesPidfds()) {
                int fd = LINUX.pidfdOpen(pid);
                assertTrue(fd >= 0, "pidfd_open answered " + fd);
                LinuxSignals.closeQuietly(fd);
            } else {
                System.out.println("ExactKillTest: this kernel or architecture has no pidfds: checked kill(2) is used");
            }
            assertEquals(Delivery.REUSED, LINUX.signal(pid, ticks + 1, Signal.KILL));
            assertTrue(sleep.isAlive());
            assertEquals(Delivery.SENT, LINUX.signal(pid, ticks, Signal.KILL));
            assertEquals(137, sleep.waitFor());
            Delivery again = LINUX.signal(pid, ticks, Signal.KILL);
            assertTrue(again == Delivery.GONE || again == Delivery.REUSED, "reaped: nothing to signal, got " + again);
        } finally {
            sleep.destroyForcibly();
            sleep.waitFor();
        }
    }

    @Test
    void reportsWrittenBeforeTheseFieldsReadWithEmptyOnes() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/records/schema1/20261201-000740-ae9e18/session.json")) {
            KillReport old = Json.mapper().treeToValue(Json.mapper().readTree(in).path("kill_report"), KillReport.class);
            assertEquals(List.of(), old.notOurs());
            assertEquals(List.of(), old.notes());
        }
    }

    private long awaitPidFile(String name) throws IOException {
        return Await.pidFile(dataDir.resolve(name), EngineFixture.WAIT);
    }

    private static Optional<long[]> uids(long pid) {
        try {
            return Optional.ofNullable(ProcFiles.uids(Files.readString(Path.of("/proc", Long.toString(pid), "status"))));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static List<Long> pids(List<ProcessRef> refs) {
        return refs.stream().map(ProcessRef::pid).toList();
    }

    private static boolean alive(long pid) {
        return LinuxProcesses.readStat(pid).map(ProcInfo::alive).orElse(false);
    }

    private static boolean aliveAs(long pid, long ticks) {
        return LinuxProcesses.readStat(pid).map(p -> p.alive() && p.startTicks() == ticks).orElse(false);
    }

    private static boolean same(long pid, long ticks) {
        return LinuxProcesses.readStat(pid).map(p -> p.startTicks() == ticks).orElse(false);
    }
}
