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

    private static boolean alive(long pid) {
        return LinuxProcesses.readStat(pid).map(ProcInfo::alive).orElse(false);
    }
}
