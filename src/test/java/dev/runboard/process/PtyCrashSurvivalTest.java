package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PTY sessions survive a kill -9 of the runboard that started them: the terminal's master is held
 * by util-linux script, not by the JVM, so the commands are not hung up, their later output still
 * lands in the capture, their stdin reaches end-of-file, and the next runboard adopts or finalises
 * them with their real exit codes and whole output.
 */
class PtyCrashSurvivalTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dataDir;

    @Test
    void ptySessionsKeepRunningAndCapturingAfterKillDashNine() throws Exception {
        OsProcesses os = OsProcesses.forThisMachine();
        SessionStore store = new SessionStore(dataDir);
        Map<String, String> ids = new LinkedHashMap<>();
        Map<String, ProcInfo> leaders = new HashMap<>();
        String java = ProcessHandle.current().info().command().orElse("java");
        Process runboard = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CrashingPtyRunboard.class.getName(), dataDir.toString()).redirectErrorStream(true).start();
        try {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(runboard.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null && !line.equals("ready"); ) {
                    String[] w = line.split(" ");
                    if (w.length == 2) {
                        ids.put(w[0], w[1]);
                    }
                }
                assertEquals(3, ids.size(), "the crashing runboard started its sessions");
                for (var e : ids.entrySet()) {
                    Path capture = store.file(e.getValue(), SessionStore.CAPTURE);
                    Await.until(WAIT, e.getKey() + " to be up", () -> read(capture).contains("start"));
                    long pid = store.load(e.getValue()).orElseThrow().pid();
                    leaders.put(e.getKey(), LinuxProcesses.readStat(pid).orElseThrow());
                }
                runboard.destroyForcibly(); // SIGKILL: no shutdown hook; every fd it held is closed
                assertTrue(runboard.waitFor(30, TimeUnit.SECONDS));
            }
            Map<String, Long> holders = new HashMap<>();
            leaders.forEach((name, p) -> holders.put(name, p.ppid()));
            for (var e : leaders.entrySet()) {
                assertEquals("script", LinuxProcesses.readStat(e.getValue().ppid()).map(ProcInfo::comm).orElse("gone"),
                        e.getKey() + ": script holds the terminal and outlived runboard");
                assertTrue(os.isAlive(e.getValue().pid()), e.getKey() + ": its leader still runs");
            }

            // With no runboard at all: the command goes on, reads end-of-file and its output lands in the capture.
            Path unwatched = store.file(ids.get("unwatched"), SessionStore.CAPTURE);
            Files.createFile(dataDir.resolve("go"));
            Await.until(WAIT, "'after' in the capture", () -> read(unwatched).contains("after"));
            Await.until(WAIT, "the unwatched session to end", () -> !os.isAlive(leaders.get("unwatched").pid()));
            assertEquals(SessionStatus.RUNNING, store.load(ids.get("unwatched")).orElseThrow().status(), "nobody recorded its end yet");

            try (EngineFixture next = new EngineFixture(dataDir)) {
                assertEquals(List.of(), next.engine().loadHistory());
                Session done = next.engine().find(ids.get("unwatched")).orElseThrow();
                SessionSnapshot end = EngineFixture.awaitEnd(done);
                assertEquals(SessionStatus.FAILED, end.status());
                assertEquals(4, end.exitCode());
                assertEquals("tty\r\nstart\r\nafter\r\n", end.output(), "it saw a terminal, and cat read end-of-file");

                Session adopted = next.engine().find(ids.get("adopted")).orElseThrow();
                assertTrue(next.engine().managesHere(adopted), "a live PTY session is adopted");
                assertEquals(SessionStatus.RUNNING, adopted.status());
                Files.createFile(dataDir.resolve("go2"));
                SessionSnapshot adoptedEnd = EngineFixture.awaitEnd(adopted);
                assertEquals(SessionStatus.FAILED, adoptedEnd.status());
                assertEquals(5, adoptedEnd.exitCode());
                StringBuilder want = new StringBuilder("start\r\n");
                for (int i = 1; i <= 20000; i++) {
                    want.append(i).append("\r\n");
                }
                assertEquals(want.toString(), fullOutput(adoptedEnd), "the whole burst, to the last line");

                Session killed = next.engine().find(ids.get("killed")).orElseThrow();
                KillReport report = next.engine().kill(killed, Signal.TERM, Duration.ofSeconds(10)).get(30, TimeUnit.SECONDS);
                assertFalse(report.escalatedToKill(), "TERM ended it, without waiting out the grace");
                SessionSnapshot killedEnd = EngineFixture.awaitEnd(killed);
                assertEquals(SessionStatus.KILLED, killedEnd.status());
                assertTrue(killedEnd.output().endsWith("last words\r\n"), killedEnd.output());

                SessionRecord record = store.load(ids.get("unwatched")).orElseThrow();
                assertEquals(4, record.exitCode());
            }
            for (var e : holders.entrySet()) {
                long holder = e.getValue();
                Await.until(WAIT, "script of " + e.getKey() + " to exit", () -> !os.isAlive(holder));
            }
        } finally {
            runboard.destroyForcibly();
            // On a failure above, end what this test started: each session's group (script then exits by itself).
            for (ProcInfo p : leaders.values()) {
                if (os.isAlive(p.pid()) && os.startTicks(p.pid()) == p.startTicks()) {
                    os.signalGroup(p.pid(), Signal.KILL);
                }
            }
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static String fullOutput(SessionSnapshot s) throws IOException {
        return s.artifact() != null ? Files.readString(Path.of(s.artifact())) : s.output();
    }
}
