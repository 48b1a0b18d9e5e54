package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture.Result;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.process.Await;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.store.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session CLI on a real store: start (a detached manager), list, show, tail, kill, wait. The
 * tests share one data dir and its supervisor (started by the first command, as a user's is), so each
 * looks at its own sessions by id; what a test leaves running is killed after it.
 */
class SessionCliTest {
    @TempDir
    static Path dataDir;

    private static Result cli(String... args) {
        return SupervisorFixture.cli(dataDir, args);
    }

    @AfterEach
    void killWhatATestLeftRunning() {
        cli("kill", "--status", "running", "--grace", "0");
    }

    @AfterAll
    static void killLeftovers() throws Exception {
        // The supervisor the CLI started, then any session a failed assertion left running (found by
        // its tag, as a user's ps would).
        new dev.runboard.engine.SupervisorFixture(dataDir).close();
        OsProcesses os = OsProcesses.forThisMachine();
        for (ProcInfo p : os.snapshot().all()) {
            if (p.alive() && p.pid() != ProcessHandle.current().pid() && os.commandLine(p.pid()).contains(dataDir.toString())) {
                os.signal(p.pid(), dev.runboard.session.Signal.KILL);
            }
        }
    }

    /** The sessions {@code list --json ARGS} prints, by id. */
    private static java.util.Map<String, JsonNode> listed(String... args) throws java.io.IOException {
        java.util.List<String> all = new java.util.ArrayList<>(List.of("list", "--json"));
        all.addAll(List.of(args));
        Result r = cli(all.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        java.util.Map<String, JsonNode> byId = new java.util.LinkedHashMap<>();
        Json.mapper().readTree(r.out()).forEach(n -> byId.put(n.get("session_id").asText(), n));
        return byId;
    }

    @Test
    void tailPrintsTheBytesAsWrittenEvenWhenTheyAreNotText() throws Exception {
        String id = cli("start", "--shell", "/bin/sh", "--", "printf '\\377\\376 abc\\r\\n'").out().strip();
        assertEquals(0, cli("wait", id).exit());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TailCommand tail = new TailCommand();
        tail.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        new picocli.CommandLine(tail).execute("--data-dir", dataDir.toString(), id);
        org.junit.jupiter.api.Assertions.assertArrayEquals(
                new byte[] {(byte) 0xff, (byte) 0xfe, ' ', 'a', 'b', 'c', '\r', '\n'}, bytes.toByteArray());
    }

    @Test
    void listAndShowSayPausedAfterStopAndRunningAfterCont() throws Exception {
        String id = cli("start", "--shell", "/bin/sh", "--", "sleep 600").out().strip();
        assertEquals(0, cli("signal", id, "STOP").exit());
        Result list = cli("list");
        assertTrue(list.out().lines().anyMatch(l -> l.startsWith(id) && l.contains(" paused ")), list.out());
        assertEquals("paused", Json.mapper().readTree(cli("show", id).out()).get("status").asText());
        java.util.Map<String, JsonNode> paused = listed("--status", "paused");
        assertTrue(paused.containsKey(id), paused.keySet().toString());
        assertTrue(paused.values().stream().allMatch(n -> n.get("status").asText().equals("paused")), paused.toString());

        assertEquals(0, cli("signal", id, "CONT").exit());
        list = cli("list");
        assertTrue(list.out().lines().anyMatch(l -> l.startsWith(id) && l.contains(" running ")), list.out());
        assertEquals(0, cli("kill", id).exit());
    }

    @Test
    void listAndShowCarryTheEventsOfASupervisedSession() throws Exception {
        String id = cli("start", "--shell", "/bin/sh", "--hang-after", "1", "--", "sleep 600").out().strip();
        Await.until(Duration.ofSeconds(30), "the hang event", () -> {
            try {
                JsonNode events = Json.mapper().readTree(cli("show", id).out()).get("events");
                return events.size() == 1 && events.get(0).get("kind").asText().equals("hang");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        JsonNode listed = listed().get(id).get("events");
        assertEquals("no output for 1 s (hang watchdog)", listed.get(0).get("message").asText());
        assertEquals(0, cli("kill", id).exit());
    }

    @Test
    void killAndRemoveTakeSeveralIdsOrAStatus() throws Exception {
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(cli("start", "--shell", "/bin/sh", "--", "sleep 60" + i).out().strip());
        }
        Result running = cli("remove", ids.get(0));
        assertEquals(1, running.exit());
        assertTrue(running.err().contains("still running: kill it first"), running.err());

        Result two = cli("kill", "--grace", "1s", ids.get(0), ids.get(1));
        assertEquals(0, two.exit(), two.err());
        JsonNode reports = Json.mapper().readTree(two.out());
        assertEquals(List.of(ids.get(0), ids.get(1)), List.of(reports.get(0).get("session_id").asText(),
                reports.get(1).get("session_id").asText()));
        Result rest = cli("kill", "--status", "running");
        JsonNode restReports = Json.mapper().readTree(rest.out());
        assertEquals(1, restReports.size(), "nothing else of the data dir runs: " + rest.out());
        assertEquals(ids.get(2), restReports.get(0).get("session_id").asText());

        Set<String> killedBefore = listed("--status", "killed").keySet();
        Result removed = cli("remove", "--status", "killed");
        assertEquals(0, removed.exit(), removed.err());
        assertEquals(new java.util.TreeSet<>(killedBefore), new java.util.TreeSet<>(removed.out().lines().toList()));
        assertTrue(killedBefore.containsAll(ids), killedBefore.toString());
        assertEquals(Set.of(), listed("--status", "killed").keySet(), "no killed session is left");
        assertTrue(java.util.Collections.disjoint(ids, listed().keySet()), "the removed ones are gone from list");

        Result neither = cli("remove");
        assertEquals(2, neither.exit());
        assertTrue(neither.err().contains("give session ids or --status STATUS"), neither.err());
    }

    /**
     * Several kills go out at once, as the window's Kill on many rows does: every session has had its
     * TERM before the first of them is ended by KILL after its grace (one after the other, the last
     * would wait for every earlier grace).
     */
    @Test
    void killingSeveralSendsEveryTermBeforeTheFirstGraceRunsOut() throws Exception {
        Path marks = dataDir.resolve("term-marks");
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(cli("start", "--shell", "/bin/sh", "--", "trap 'echo " + i + " >> " + marks + "' TERM; echo up;"
                    + " while :; do sleep 0.1; done").out().strip());
        }
        for (String id : ids) {
            dev.runboard.process.Await.until(java.time.Duration.ofSeconds(30), id + " to set its trap",
                    () -> cli("show", id).out().contains("up\\n"));
        }
        Result killed = cli("kill", "--grace", "4s", "--status", "running");
        assertEquals(0, killed.exit(), killed.err());
        JsonNode reports = Json.mapper().readTree(killed.out());
        assertEquals(4, reports.size(), killed.out());
        java.time.Instant firstEnd = java.time.Instant.MAX;
        for (String id : ids) {
            JsonNode end = Json.mapper().readTree(cli("show", id).out());
            assertEquals("killed", end.path("status").asText(), end.toString());
            firstEnd = java.util.Collections.min(List.of(firstEnd, java.time.Instant.parse(end.path("ended_at").asText())));
        }
        // Each TERM left its mark; all four were written before any session ended (each outlived TERM by its 4 s grace).
        assertEquals(4, java.nio.file.Files.readAllLines(marks).size(), "every session got its TERM");
        java.time.Instant lastTerm = java.nio.file.Files.getLastModifiedTime(marks).toInstant();
        assertTrue(lastTerm.isBefore(firstEnd), "the last TERM (" + lastTerm + ") came before the first end (" + firstEnd + ")");
    }

    @Test
    void startListShowWaitAndTail() throws Exception {
        Result started = cli("start", "--shell", "/bin/sh", "--", "echo hello; sleep 1; echo bye; exit 4");
        assertEquals(0, started.exit(), started.err());
        String id = started.out().strip();
        assertTrue(id.matches("\\d{8}-\\d{6}-[0-9a-f]{6}"), id);

        Result list = cli("list");
        assertTrue(list.out().lines().anyMatch(l -> l.startsWith(id) && l.contains("running")), list.out());

        Result wait = cli("wait", id);
        assertEquals(4, wait.exit(), "wait exits with the session's code: " + wait.err());

        JsonNode show = Json.mapper().readTree(cli("show", id.substring(0, 18)).out());
        assertEquals("failed", show.get("status").asText());
        assertEquals(4, show.get("exit_code").asInt());
        assertEquals("hello\nbye\n", show.get("output").asText());

        java.util.Map<String, JsonNode> failed = listed("--status", "failed");
        assertTrue(failed.containsKey(id), failed.keySet().toString());
        assertTrue(failed.values().stream().allMatch(n -> n.get("status").asText().equals("failed")), failed.toString());

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TailCommand tail = new TailCommand();
        tail.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        new picocli.CommandLine(tail).execute("--data-dir", dataDir.toString(), id);
        assertEquals("hello\nbye\n", bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void killFromTheCliEndsTheTreeAndTheManagerRecordsKilled() throws Exception {
        String id = cli("start", "--shell", "/bin/sh", "--", "sleep 300 & sleep 300; wait").out().strip();
        Await.until(Duration.ofSeconds(20), "the session's processes", () -> tagged(id).size() >= 3);
        Result kill = cli("kill", id, "--grace", "1");
        assertEquals(0, kill.exit(), kill.err());
        JsonNode report = Json.mapper().readTree(kill.out());
        assertEquals(0, report.get("survivors").size());
        assertEquals(List.of(), tagged(id), "nothing of the session is left in /proc");
        Await.until(Duration.ofSeconds(20), "the manager to record the end",
                () -> cli("show", id).out().contains("\"status\" : \"killed\""));

        // The killed line's EXIT (SIGTERM, longer than any exit code) stays in its column.
        List<String> list = cli("list").out().lines().toList();
        String header = list.get(0);
        String line = list.stream().filter(l -> l.startsWith(id)).findFirst().orElseThrow();
        int exitEnd = header.indexOf("EXIT") + "EXIT".length();
        assertTrue(line.substring(0, exitEnd).matches(".* SIG[A-Z]+"), header + "\n" + line);
        assertEquals(' ', line.charAt(exitEnd), header + "\n" + line);
        assertEquals("-", line.substring(header.indexOf("PROGRESS")).split(" ")[0], header + "\n" + line);
        assertEquals("sleep 300 & sleep 300; wait", line.substring(header.indexOf("COMMAND")), header + "\n" + line);
    }

    @Test
    void startHandsTheOutputRulesToItsManager() throws Exception {
        String id = cli("start", "--shell", "/bin/sh", "--fail-on", "ERR[O]R", "--", "echo ERROR; sleep 300").out().strip();
        cli("wait", id);
        JsonNode show = Json.mapper().readTree(cli("show", id).out());
        assertEquals("failed", show.get("status").asText());
        assertTrue(show.get("reason").asText().contains("/ERR[O]R/"), show.get("reason").asText());
        assertEquals(List.of(), tagged(id), "the rule ended the whole tree");
    }

    @Test
    void unknownIdsAndBadFlagsExitTwoWithOneLine() {
        Result unknown = cli("show", "nope");
        assertEquals(2, unknown.exit());
        assertEquals("runboard show: no session nope in " + dataDir + " (see runboard list)", unknown.err().strip());
        Result badStatus = cli("list", "--status", "sleepy");
        assertEquals(2, badStatus.exit());
        assertEquals(1, badStatus.err().strip().lines().count());
        Result badSignal = cli("kill", "nope", "--signal", "BOOM");
        assertEquals(2, badSignal.exit());
        assertTrue(badSignal.err().contains("unknown signal"), badSignal.err());
        Result badCwd = cli("start", "--cwd", dataDir.resolve("missing").toString(), "--", "true");
        assertEquals(2, badCwd.exit());
        assertTrue(badCwd.err().contains("does not exist"), badCwd.err());
    }

    @Test
    void signalStopsAndContinuesADetachedSessionsGroup() throws Exception {
        String id = cli("start", "--shell", "/bin/sh", "--", "sleep 300 & wait").out().strip();
        Await.until(Duration.ofSeconds(20), "the session's processes", () -> tagged(id).size() >= 2);
        Result stop = cli("signal", id, "STOP");
        assertEquals(0, stop.exit(), stop.err());
        assertTrue(Json.mapper().readTree(stop.out()).get("sent").asBoolean());
        // Every process of the command; its wrapper (the session's pid) goes on holding the tree and the deadline.
        long wrapper = Json.mapper().readTree(cli("show", id).out()).path("pid").asLong();
        Await.until(Duration.ofSeconds(20), "every process stopped (T)", () -> tagged(id).stream().filter(pid -> pid != wrapper)
                .allMatch(pid -> dev.runboard.process.LinuxProcesses.readStat(pid).map(p -> p.state() == 'T').orElse(true)));
        assertEquals(0, cli("signal", id, "SIGCONT").exit());
        Await.until(Duration.ofSeconds(20), "running again", () -> tagged(id).stream()
                .noneMatch(pid -> dev.runboard.process.LinuxProcesses.readStat(pid).map(p -> p.state() == 'T').orElse(false)));
        assertEquals(2, cli("signal", id, "NOPE").exit(), "an unknown signal is a usage error");
        assertEquals(0, cli("kill", id, "--grace", "1").exit());
    }

    private static List<Long> tagged(String id) {
        OsProcesses os = OsProcesses.forThisMachine();
        return os.snapshot().all().stream().filter(ProcInfo::alive)
                .filter(p -> os.hasEnvEntry(p.pid(), "RUNBOARD_SESSION=" + id)).map(ProcInfo::pid).toList();
    }
}
