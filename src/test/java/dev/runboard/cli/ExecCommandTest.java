package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.process.LinuxProcesses;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecCommandTest {
    @TempDir
    Path dataDir;

    private record Result(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return Json.mapper().readTree(out);
        }
    }

    private Result exec(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of("exec", "--data-dir", dataDir.toString(), "--shell", "/bin/sh"));
        all.addAll(List.of(args));
        int code = RunboardCli.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void printsTheFinalSnapshotAndExitsWithTheCommandsCode() throws Exception {
        Result r = exec("--", "echo hi; exit 7");
        assertEquals(7, r.exit());
        JsonNode j = r.json();
        assertEquals("failed", j.get("status").asText());
        assertEquals(7, j.get("exit_code").asInt());
        assertEquals("hi\n", j.get("output").asText());
        assertEquals("echo hi; exit 7", j.get("command").asText());
    }

    @Test
    void theLastLineOfCarriageReturnProgressIsTheTextATerminalShows() throws Exception {
        JsonNode j = exec("--", "for i in $(seq 1 5000); do printf '\\rprogress %d' $i; done").json();
        assertEquals("completed", j.get("status").asText());
        assertEquals("progress 5000", j.get("last_line").asText());
    }

    @Test
    void snapshotFieldNamesAreTheContract() throws Exception {
        JsonNode j = exec("--", "seq 1 50000").json();
        Set<String> names = new TreeSet<>();
        j.fieldNames().forEachRemaining(names::add);
        for (String required : List.of("status", "session_id", "command", "cwd", "exit_code", "output", "shell",
                "output_truncated", "output_original_bytes", "output_visible_bytes", "artifact", "artifact_error",
                "artifact_error_code", "elapsed_seconds")) {
            assertTrue(names.contains(required), "missing " + required + " in " + names);
        }
        assertTrue(j.get("output_truncated").asBoolean());
        assertEquals(Files.size(Path.of(j.get("artifact").asText())), j.get("output_original_bytes").asLong());
        assertTrue(j.get("artifact_error").isNull());
        assertEquals("/bin/sh", j.get("shell").asText());
        assertTrue(j.get("artifact").asText().startsWith(dataDir.toString().replace('\\', '/')));
    }

    @Test
    void niceRunsTheCommandBelowNormalPriorityAndTheSnapshotSaysSo() throws Exception {
        JsonNode j = exec("--nice", "7", "--", "awk '{print $19}' /proc/self/stat").json();
        assertEquals("7\n", j.get("output").asText());
        assertEquals(7, j.get("nice").asInt());
        assertEquals(0, exec("--", "true").json().get("nice").asInt(), "normal priority unless asked");

        long started = sessionFolders();
        Result tooHigh = exec("--nice", "20", "--", "true");
        assertEquals(2, tooHigh.exit());
        assertTrue(tooHigh.err().startsWith("runboard exec: --nice must be 0 (normal) to 19 (lowest)"), tooHigh.err());
        for (String bad : List.of("50", "-1", "99999999999999999999")) {
            Result r = exec("--nice", bad, "--", "true");
            assertEquals(2, r.exit(), bad);
            assertTrue(r.err().startsWith("runboard exec: --nice ") && r.err().contains("0 (normal) to 19 (lowest)"), bad + ": " + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        }
        Result word = exec("--nice", "abc", "--", "true");
        assertTrue(word.err().startsWith("runboard exec: --nice expects a whole number from 0 (normal) to 19 (lowest), got 'abc'"),
                word.err());
        assertTrue(exec("--nice=", "--", "true").err().startsWith("runboard exec: --nice is empty: give a whole number from 0"
                + " (normal) to 19 (lowest), or leave --nice out for normal priority"));
        assertEquals(started, sessionFolders(), "nothing started for a bad --nice");
    }

    private long sessionFolders() throws java.io.IOException {
        try (var folders = Files.list(dataDir.resolve("sessions"))) {
            return folders.count();
        }
    }

    @Test
    void untruncatedOutputHasNullByteCounts() throws Exception {
        JsonNode j = exec("--", "echo small").json();
        assertTrue(j.get("output_original_bytes").isNull());
        assertTrue(j.get("output_visible_bytes").isNull());
        assertEquals(false, j.get("output_truncated").asBoolean());
    }

    @Test
    void timeoutExitsWith124() throws Exception {
        Result r = exec("--timeout", "1", "--grace", "0.2", "--", "sleep 30");
        assertEquals(124, r.exit());
        assertEquals("timeout", r.json().get("status").asText());
    }

    @Test
    void noShellRunsArgv() throws Exception {
        StringWriter out = new StringWriter();
        int code = RunboardCli.run(new String[] {"exec", "--data-dir", dataDir.toString(), "--no-shell", "--env", "X=1",
            "--", "printf", "%s|", "a b", "$X"}, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        assertEquals(0, code);
        assertEquals("a b|$X|", Json.mapper().readTree(out.toString()).get("output").asText());
    }

    /**
     * exec does its end's work in the few milliseconds after the command: a command that ends at once
     * still leaves its whole record (ended, with no file of a running session left beside it) and
     * prints the same end; one whose output outgrew the preview has its artifact and its marker.
     */
    @Test
    void aCommandThatEndsAtOnceLeavesItsWholeRecordAndSnapshot() throws Exception {
        JsonNode j = exec("--", "true").json();
        assertEquals("completed", j.get("status").asText());
        assertEquals(0, j.get("exit_code").asInt());
        Path folder = dataDir.resolve("sessions").resolve(j.get("session_id").asText());
        JsonNode record = Json.mapper().readTree(Files.readString(folder.resolve("session.json")));
        assertEquals("completed", record.get("status").asText());
        assertEquals(j.get("ended_at").asText(), record.get("ended_at").asText());
        assertEquals(j.get("started_at").asText(), record.get("started_at").asText());
        try (var files = Files.list(folder)) {
            assertEquals(Set.of("session.json", "capture.log", "capture.log.times", "lock"),
                    files.map(f -> f.getFileName().toString()).collect(java.util.stream.Collectors.toSet()),
                    "an ended session's folder: no exit status or space set aside is left");
        }

        JsonNode big = exec("--", "yes 0123456789 | head -c 1000000").json();
        assertEquals("completed", big.get("status").asText());
        long omitted = big.get("output_original_bytes").asLong() - big.get("output_visible_bytes").asLong();
        assertTrue(java.util.regex.Pattern.compile("\n\u2026 \\d+(\\.\\d)? (KiB|MiB) omitted \\(" + omitted + " bytes\\): open the artifact")
                .matcher(big.get("output").asText()).find(), "the omission marker");
        assertEquals(1_000_000, Files.size(Path.of(big.get("artifact").asText())));
    }

    @Test
    void aMissingCwdIsSaidAndNothingIsLaunchedOrRecorded() throws Exception {
        Result missingCwd = exec("--cwd", dataDir.resolve("missing").toString(), "--", "touch " + dataDir.resolve("ran"));
        assertEquals(2, missingCwd.exit());
        assertEquals("runboard exec: cwd " + dataDir.resolve("missing") + " does not exist", missingCwd.err().strip());
        assertFalse(Files.exists(dataDir.resolve("ran")), "the command did not run");
        Path sessions = dataDir.resolve("sessions");
        if (Files.isDirectory(sessions)) {
            try (var left = Files.list(sessions)) {
                assertEquals(List.of(), left.toList(), "no session folder");
            }
        }
    }

    @Test
    void usageErrorsExitTwoWithOneLine() {
        Result missingCwd = exec("--cwd", dataDir.resolve("missing").toString(), "--", "true");
        assertEquals(2, missingCwd.exit());
        assertEquals("runboard exec: cwd " + dataDir.resolve("missing") + " does not exist", missingCwd.err().strip());
        assertEquals("", missingCwd.out());

        Result badFlag = exec("--timeout", "soon", "--", "true");
        assertEquals(2, badFlag.exit());
        assertEquals(1, badFlag.err().strip().lines().count(), badFlag.err());

        Result zeroTimeout = exec("--timeout", "0", "--", "true");
        assertEquals(2, zeroTimeout.exit());
        assertTrue(zeroTimeout.err().contains("timeout must be at least 1 second"), zeroTimeout.err());

        Result noCommand = exec();
        assertEquals(2, noCommand.exit());
        assertTrue(noCommand.err().contains("COMMAND"), noCommand.err());
    }

    @Test
    void ctrlCOnExecKillsTheSessionsTree() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path pidFile = dataDir.resolve("grandchild.pid");
        // As from a terminal: SIGINT at its default, whatever this test JVM inherited (a background job ignores it).
        Process exec = new ProcessBuilder("env", "--default-signal=INT", java, "-cp", System.getProperty("java.class.path"), "dev.runboard.Launcher",
                "exec", "--data-dir", dataDir.toString(), "--grace", "1", "--",
                "sleep 300 & echo $! > '" + pidFile + "'; wait")
                .redirectErrorStream(true).start();
        try {
            Await.until(Duration.ofSeconds(30), "the session's grandchild to start",
                    () -> Files.exists(pidFile) && !readQuietly(pidFile).isBlank());
            long grandchild = Long.parseLong(readQuietly(pidFile).strip());
            OsProcesses.forThisMachine().signal(exec.pid(), dev.runboard.session.Signal.INT);
            String out = new String(exec.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(130, exec.waitFor(), out);
            assertTrue(out.contains("\"status\" : \"killed\""), "the killed snapshot is printed: " + out);
            assertTrue(LinuxProcesses.readStat(grandchild).map(ProcInfo::alive).orElse(false) == false,
                    "the grandchild is gone from /proc");
        } finally {
            exec.destroyForcibly();
        }
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    @Test
    void versionAndHelp() {
        StringWriter out = new StringWriter();
        assertEquals(0, RunboardCli.run(new String[] {"--version"}, new PrintWriter(out, true), new PrintWriter(new StringWriter())));
        assertTrue(out.toString().startsWith("runboard "));
        StringWriter help = new StringWriter();
        assertEquals(0, RunboardCli.run(new String[] {"exec", "--help"}, new PrintWriter(help, true), new PrintWriter(new StringWriter())));
        for (String option : List.of("--shell", "--no-shell", "--cwd", "--env", "--timeout", "--grace", "--preview-bytes", "--data-dir")) {
            assertTrue(help.toString().contains(option), "help lists " + option);
        }
    }
}
