package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kills real, hostile process trees and checks /proc afterwards: nothing of the session may survive. */
class TreeKillTest {
    @TempDir
    Path dataDir;
    EngineFixture fx;
    Path scripts;

    @BeforeEach
    void setUp() throws Exception {
        fx = new EngineFixture(dataDir);
        scripts = Files.createDirectory(dataDir.resolve("scripts"));
        for (String name : List.of("tree.sh", "nasty.sh")) {
            try (var in = getClass().getResourceAsStream("/trees/" + name)) {
                Files.copy(in, scripts.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private Session startAndAwait(String script, int minProcesses) {
        Session s = fx.engine().start(fx.sh("sh " + scripts.resolve(script)).build());
        Await.until(Duration.ofSeconds(20), minProcesses + " processes of " + script,
                () -> EngineFixture.liveTagged(s).size() >= minProcesses);
        return s;
    }

    @Test
    void fourLevelTreeIsGoneAfterTerm() throws Exception {
        Session s = startAndAwait("tree.sh", 60); // 15 shells + 45 sleeps
        List<Long> before = new java.util.ArrayList<>(EngineFixture.liveTagged(s));
        before.remove(s.pid()); // the wrapper: it holds the tree and is never signalled, it exits once the tree is gone
        KillReport report = fx.engine().kill(s, Signal.TERM, Duration.ofSeconds(2)).get();
        assertEquals(List.of(), report.survivors());
        EngineFixture.assertNoneLeft(s, "nothing of the session is left");
        assertTrue(report.signalled().size() >= before.size(), report.summary());
        assertTrue(before.stream().noneMatch(TreeKillTest::alive), "every pid seen before the kill is gone from /proc");
        assertEquals(SessionStatus.KILLED, EngineFixture.awaitEnd(s).status());
    }

    @Test
    void hostileTreeHasZeroSurvivors() throws Exception {
        Session s = startAndAwait("nasty.sh", 70);
        Await.until(Duration.ofSeconds(10), "the script to say ready", () -> s.snapshot().output().contains("ready"));
        List<Long> before = EngineFixture.liveTagged(s);
        long group = fx.engine().commandGroup(s);
        long outsideGroup = before.stream().filter(pid -> pid != s.pid() && LinuxProcesses.readStat(pid)
                .map(p -> p.pgid() != group).orElse(false)).count();
        assertTrue(outsideGroup >= 2, "the setsid daemons left the group: " + outsideGroup);

        KillReport report = fx.engine().kill(s, Signal.TERM, Duration.ofMillis(500)).get();

        assertEquals(List.of(), report.survivors(), report.summary());
        assertTrue(report.escalatedToKill(), "the TERM-ignorer needed KILL after the grace");
        assertTrue(report.killedAfterGrace().size() >= 1, report.summary());
        EngineFixture.assertNoneLeft(s, "nothing of the session is left");
        assertTrue(before.stream().noneMatch(TreeKillTest::alive), "every pid seen before the kill is gone from /proc");
        SessionSnapshot last = EngineFixture.awaitEnd(s);
        assertEquals(SessionStatus.KILLED, last.status());
        assertEquals(report, last.killReport());
    }

    @Test
    void killNowWithGraceZeroSkipsTheGrace() throws Exception {
        Session s = startAndAwait("nasty.sh", 70);
        KillReport report = fx.engine().kill(s, Signal.KILL, Duration.ZERO).get();
        assertEquals(List.of(), report.survivors(), report.summary());
        assertEquals("KILL", report.signal());
        EngineFixture.assertNoneLeft(s, "nothing of the session is left");
    }

    /**
     * Kills run in forks of one kill server the engine keeps (runboard-wrap.pl --kill -), not in a perl started per
     * kill: three sessions killed at once leave this JVM with one such child, and every tree is gone, reported.
     */
    @Test
    void killsAtOnceAreForksOfOneKillServer() throws Exception {
        List<Session> sessions = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sessions.add(startAndAwait("tree.sh", 60));
        }
        List<java.util.concurrent.CompletableFuture<KillReport>> kills = new java.util.ArrayList<>();
        sessions.forEach(s -> kills.add(fx.engine().kill(s, Signal.TERM, Duration.ofSeconds(2))));
        for (int i = 0; i < sessions.size(); i++) {
            KillReport report = kills.get(i).get();
            assertEquals(List.of(), report.survivors(), report.summary());
            assertTrue(report.signalled().size() >= 60, report.summary());
            EngineFixture.assertNoneLeft(sessions.get(i), "nothing of the session is left");
            assertEquals(SessionStatus.KILLED, EngineFixture.awaitEnd(sessions.get(i)).status());
        }
        assertEquals(1, killServers().size(), "one kill server of this data dir among this JVM's children: " + killServers());
    }

    /** A kill server that has gone (killed, say) does not lose the next kill: another one is started for it. */
    @Test
    void aKillServerThatHasGoneIsStartedAgainForTheNextKill() throws Exception {
        Session first = startAndAwait("tree.sh", 60);
        assertEquals(List.of(), fx.engine().kill(first, Signal.TERM, Duration.ofSeconds(2)).get().survivors());
        List<ProcessHandle> servers = killServers();
        assertEquals(1, servers.size(), servers.toString());
        servers.get(0).destroyForcibly();
        Await.until(Duration.ofSeconds(10), "the kill server to be gone", () -> !servers.get(0).isAlive());

        Session second = startAndAwait("nasty.sh", 70);
        KillReport report = fx.engine().kill(second, Signal.TERM, Duration.ofMillis(500)).get();
        assertEquals(List.of(), report.survivors(), report.summary());
        assertTrue(report.escalatedToKill(), report.summary());
        EngineFixture.assertNoneLeft(second, "nothing of the session is left");
        assertEquals(SessionStatus.KILLED, EngineFixture.awaitEnd(second).status());
        assertEquals(1, killServers().size(), "a new one: " + killServers());
    }

    /**
     * A kill server that ends without answering (here one that exits at once) fails the kill it took with
     * {@link KillServer.Gone}, never leaves it waiting: TreeKill then runs kill mode in a perl of its own.
     */
    @Test
    @org.junit.jupiter.api.Timeout(60) // a kill left waiting would hang here
    void aKillServerThatEndsWithoutAnsweringSaysSo() throws Exception {
        KillServer ends = new KillServer(List.of("sh", "-c", "exit 0"));
        for (int i = 0; i < 20; i++) { // it may end before, during or after the kill is sent
            org.junit.jupiter.api.Assertions.assertThrows(KillServer.Gone.class, () -> ends.kill(List.of("x", "y")));
        }
    }

    /**
     * This JVM's children that are this data dir's wrapper serving kills ({@code perl DATA/bin/runboard-wrap.pl --kill -}):
     * other tests' engines in this JVM have theirs, for a while after their last kill.
     */
    private List<ProcessHandle> killServers() {
        String script = dataDir.resolve("bin").toString();
        return ProcessHandle.current().children().filter(p -> p.isAlive() && p.info().arguments().map(List::of)
                .map(words -> words.size() == 3 && words.get(0).startsWith(script) && words.get(1).equals("--kill")
                        && words.get(2).equals("-"))
                .orElse(false)).toList();
    }

    private static boolean alive(long pid) {
        return LinuxProcesses.readStat(pid).map(ProcInfo::alive).orElse(false);
    }
}
