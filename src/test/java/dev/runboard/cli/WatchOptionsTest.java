package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.WatchSpec;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** exec/start's output rules, hang watchdog and runaway guard flags. */
class WatchOptionsTest {
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
    void failOnEndsASessionThatExitedZeroAsFailedWithTheRuleAsReason() throws Exception {
        Result r = exec("--fail-on", "ERROR", "--", "echo ERROR; exit 0");
        JsonNode j = r.json();
        assertEquals("failed", j.get("status").asText());
        assertEquals(0, j.get("exit_code").asInt());
        assertTrue(j.get("reason").asText().contains("/ERROR/"), j.get("reason").asText());
        assertEquals(1, r.exit(), "a rule failure is not success for a script");
    }

    @Test
    void failOnKillsARunningCommandAndExecExitsAsAShellReportsTheTerm() throws Exception {
        Result r = exec("--fail-on", "ERROR", "--grace", "5", "--", "echo ERROR; sleep 300");
        JsonNode j = r.json();
        assertEquals("failed", j.get("status").asText());
        assertTrue(j.get("reason").asText().contains("/ERROR/"), j.get("reason").asText());
        assertEquals("TERM", j.get("signal").asText(), "the rule ended the tree with TERM, which the shell did not catch");
        assertEquals(143, j.get("exit_code").asInt());
        assertEquals(143, r.exit(), "128 + 15, as a shell reports a command killed by TERM");
        // The README states this code: the sentence on --fail-on must name it.
        String readme = java.nio.file.Files.readString(Path.of("README.md"));
        String sentence = readme.substring(readme.indexOf("A `--fail-on` match ends the"));
        sentence = sentence.substring(0, sentence.indexOf(". Usage errors"));
        assertTrue(sentence.contains("`exec` exits 143"), sentence);
        assertTrue(sentence.contains("exits 1"), sentence);
    }

    @Test
    void hangAfterKillEndsASilentTree() throws Exception {
        Result r = exec("--hang-after", "1", "--hang-action", "kill", "--grace", "0.2", "--", "echo one; sleep 300");
        JsonNode j = r.json();
        assertEquals("killed", j.get("status").asText());
        assertTrue(j.get("reason").asText().contains("no output for 1 s"), j.get("reason").asText());
    }

    @Test
    void aHangWarningIsOneLineOnStderrAndAnEventInTheJson() throws Exception {
        // The issue's own example: quiet for 4 s with a 2 s watchdog, then it goes on and completes.
        Result r = exec("--hang-after", "2", "--", "echo a; sleep 4; echo b");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("runboard: hang: no output for 2 s (hang watchdog)"), r.err().lines().toList());
        JsonNode events = r.json().get("events");
        assertEquals(1, events.size(), events.toString());
        assertEquals("hang", events.get(0).get("kind").asText());
        assertEquals("no output for 2 s (hang watchdog)", events.get(0).get("message").asText());
        assertTrue(events.get(0).hasNonNull("time"));
    }

    @Test
    void aGuardThatKillsSaysSoOnStderr() throws Exception {
        Result r = exec("--max-rss", "20M", "--grace", "0.2", "--", "exec perl -e '$x = \"x\" x (64 << 20); sleep 300'");
        assertEquals("killed", r.json().get("status").asText());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("runboard: guard: runaway guard: RSS "), lines.get(0));
        assertEquals("guard", r.json().get("events").get(0).get("kind").asText());
    }

    @Test
    void badValuesExitTwoWithOneLine() {
        for (String[] bad : List.of(new String[] {"--max-rss", "lots"}, new String[] {"--hang-action", "kill"},
                new String[] {"--hang-after", "1", "--hang-action", "explode"}, new String[] {"--max-cpu", "-5"},
                new String[] {"--fail-on", "("})) {
            List<String> args = new ArrayList<>(List.of(bad));
            args.addAll(List.of("--", "true"));
            Result r = exec(args.toArray(String[]::new));
            assertEquals(2, r.exit(), String.join(" ", bad) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertEquals("", r.out());
        }
        Result rss = exec("--max-rss", "lots", "--", "true");
        assertTrue(rss.err().contains("--max-rss expects a size like 500M or 2G, got 'lots'"), rss.err());
    }

    @Test
    void flagsBuildTheWatchSpecAndSurviveStartsHandOver() {
        String[] flags = {"--fail-on", "ERROR", "--fail-on", "FATAL", "--highlight", "WARN", "--notify-on", "done",
            "--hang-after", "30", "--hang-action", "KILL", "--max-rss", "1.5G", "--max-cpu", "150", "--max-cpu-for", "20",
            "--pty", "--", "make"};
        ExecCommand first = parse(flags);
        SessionSpec spec = first.specOptions.toSpec();
        WatchSpec w = spec.watch();
        assertEquals(List.of(OutputRule.failOn("ERROR"), OutputRule.failOn("FATAL"),
                new OutputRule("WARN", OutputRule.Action.HIGHLIGHT), new OutputRule("done", OutputRule.Action.NOTIFY)), w.rules());
        assertEquals(Duration.ofSeconds(30), w.hangAfter());
        assertEquals(WatchSpec.HangAction.KILL, w.hangAction());
        assertEquals(1536L << 20, w.maxRssBytes());
        assertEquals(150.0, w.maxCpuPercent());
        assertEquals(Duration.ofSeconds(20), w.cpuFor());

        SessionSpec handedOver = parse(first.specOptions.toArgs().toArray(String[]::new)).specOptions.toSpec();
        assertEquals(w, handedOver.watch());
        assertTrue(handedOver.pty(), "--pty is handed over too");
    }

    @Test
    void sizesTakeBinaryUnitsAndCpuForDefaultsToTenSeconds() {
        SpecOptions o = parse("--max-cpu", "90", "--", "x").specOptions;
        assertEquals(500L << 20, o.parseSize("500M"));
        assertEquals(2L << 30, o.parseSize("2G"));
        assertEquals(512L << 10, o.parseSize("512KiB"));
        assertEquals(4096, o.parseSize("4096"));
        assertEquals(Duration.ofSeconds(10), o.toSpec().watch().cpuFor());
    }

    @Test
    void helpListsTheWatchFlags() {
        StringWriter out = new StringWriter();
        RunboardCli.run(new String[] {"exec", "--help"}, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        for (String flag : List.of("--fail-on", "--highlight", "--notify-on", "--hang-after", "--hang-action", "--max-rss",
                "--max-cpu", "--max-cpu-for")) {
            assertTrue(out.toString().contains(flag + "="), flag + " in\n" + out);
        }
    }

    private ExecCommand parse(String... args) {
        ExecCommand cmd = new ExecCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }
}
