package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The session options read durations and sizes in the Contract's grammar and refuse numbers out
 * of range with one clear line. Nothing here starts a process: every case fails (or is read)
 * before exec would start one.
 */
class SpecOptionsTest {
    @TempDir
    Path dataDir;

    @Test
    void durationsUseTheContractGrammarAndBareNumbersAreStillSeconds() {
        SessionSpec s = spec("--timeout", "5m", "--grace", "500ms", "--hang-after", "1h30m", "--max-cpu", "90",
                "--max-cpu-for", "30s", "--", "make");
        assertEquals(Duration.ofMinutes(5), s.timeout());
        assertEquals(Duration.ofMillis(500), s.grace());
        assertEquals(Duration.ofMinutes(90), s.watch().hangAfter());
        assertEquals(Duration.ofSeconds(30), s.watch().cpuFor());

        SessionSpec bare = spec("--timeout", "90", "--grace", "0.2", "--hang-after", "2", "--max-cpu", "90",
                "--max-cpu-for", "1.5", "--", "make");
        assertEquals(Duration.ofSeconds(90), bare.timeout());
        assertEquals(Duration.ofMillis(200), bare.grace());
        assertEquals(Duration.ofSeconds(2), bare.watch().hangAfter());
        assertEquals(Duration.ofMillis(1500), bare.watch().cpuFor());
        assertEquals(SessionSpec.DEFAULT_GRACE, spec("--", "make").grace());
    }

    @Test
    void sizesTakeUnitsAndStartHandsOverWhatWasTyped() {
        ExecCommand first = parse("--timeout", "5m", "--preview-bytes", "1M", "--max-rss", "50M", "--hang-after", "90s",
                "--max-cpu", "100", "--max-cpu-for", "1m", "--grace", "3s", "--", "make");
        SessionSpec s = first.specOptions.toSpec();
        assertEquals(1 << 20, s.previewBytes());
        assertEquals(50L << 20, s.watch().maxRssBytes());
        List<String> args = first.specOptions.toArgs();
        assertTrue(args.containsAll(List.of("5m", "1M", "50M", "90s", "1m", "3s")), args.toString());
        assertEquals(s, parse(args.toArray(String[]::new)).specOptions.toSpec());
    }

    @Test
    void outOfRangeNumbersAreRefusedNamingTheOption() {
        assertRefused("--preview-bytes must be 1 KiB to 16 MiB (1024 to 16777216 bytes), got 2147483647",
                "--preview-bytes", "2147483647");
        assertRefused("--preview-bytes must be 1 KiB to 16 MiB (1024 to 16777216 bytes), got 1000", "--preview-bytes", "1000");
        assertRefused("--grace: 'NaN' is not a duration (write e.g. 500ms, 30s, 5m, 1h30m or 2d; a bare number is seconds)",
                "--grace", "NaN");
        assertRefused("--grace: 'Infinity' is not a duration", "--grace", "Infinity");
        assertRefused("--grace: '-1' is negative: a duration cannot be", "--grace", "-1");
        assertRefused("--grace: '9200000000' is too long for a duration (at most 100 years)", "--grace", "9200000000");
        assertRefused("--grace must be at most 1 hour, got 2h", "--grace", "2h");
        assertRefused("--timeout: '99999999999999999999' is too long for a duration", "--timeout", "99999999999999999999");
        assertRefused("--timeout must be at most 365 days, got 8784h (leave --timeout out for none)", "--timeout", "8784h");
        assertRefused("--timeout must be at most 365 days, got 366d (leave --timeout out for none)", "--timeout", "366d");
        assertRefused("--timeout must be at most 365 days, got 31536000.5 (leave --timeout out for none)", "--timeout", "31536000.5");
        assertRefused("--timeout must be at least 1 second (leave --timeout out for none)", "--timeout", "0");
        assertRefused("--timeout must be at least 1 second", "--timeout", "0.5");
        assertRefused("--hang-after must act within 365 days, got 9600h", "--hang-after", "9600h");
        // What a message echoes is what was typed, never a rounded value that contradicts the limit beside it.
        assertRefused("--max-rss must be 1 MiB to 1 PiB, got 1025T", "--max-rss", "1025T");
        assertRefused("--max-rss must be 1 MiB to 1 PiB, got 1024.5T", "--max-rss", "1024.5T");
        assertRefused("--max-rss must be 1 MiB to 1 PiB, got 1048575", "--max-rss", "1048575");
        assertRefused("--max-rss must be 1 MiB to 1 PiB, got 0.99999M", "--max-rss", "0.99999M");
        assertRefused("--preview-bytes must be 1 KiB to 16 MiB (1024 to 16777216 bytes), got 16.5M", "--preview-bytes", "16.5M");
        assertRefused("--max-cpu-for must be 0 to 365 days, got 8760.01h", "--max-cpu", "50", "--max-cpu-for", "8760.01h");
        assertRefused("--max-cpu must be a percentage above 0 and at most 100000 (100 is one core), got 1e6", "--max-cpu", "1e6");
        assertRefused("--grace must be at most 1 hour, got 1.0001h", "--grace", "1.0001h");
        assertRefused("--max-rss must be 1 MiB to 1 PiB, got 99999999999G", "--max-rss", "99999999999G");
        assertRefused("--max-rss must be 1 MiB to 1 PiB, got 2048T", "--max-rss", "2048T");
        assertRefused("--max-rss expects a size like 500M or 2G, got '1e9'", "--max-rss", "1e9");
        assertRefused("--max-cpu must be a percentage above 0 and at most 100000 (100 is one core), got NaN", "--max-cpu", "NaN");
        assertRefused("--max-cpu-for: '10 parsecs' is not a duration", "--max-cpu", "90", "--max-cpu-for", "10 parsecs");
    }

    @Test
    void aRangeErrorExitsTwoWithOneLineAndStartsNothing() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of("exec", "--data-dir", dataDir.toString(), "--timeout", "99999999999999999999",
                "--", "true"));
        int code = RunboardCli.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, code);
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains("--timeout: '99999999999999999999' is too long"), err.toString());
        assertEquals("", out.toString());
        assertTrue(!dataDir.resolve("sessions").toFile().exists(), "nothing was started");
    }

    /** An empty pattern, ".*" or an empty alternative matches every line: a fail rule would fail every session at once. */
    @Test
    void aRuleThatMatchesEveryLineIsRefusedAndStartsNothing() {
        for (List<String> rule : List.of(List.of("--fail-on", ""), List.of("--highlight", ".*"), List.of("--notify-on", "|ERROR"),
                List.of("--fail-on", "^"))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            List<String> all = new ArrayList<>(List.of("exec", "--data-dir", dataDir.toString()));
            all.addAll(rule);
            all.addAll(List.of("--", "echo", "hello"));
            assertEquals(2, RunboardCli.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true)), rule.toString());
            assertEquals(1, err.toString().strip().lines().count(), err.toString());
            assertTrue(err.toString().contains("/" + rule.get(1) + "/ matches every line (it matches an empty string)"), err.toString());
            assertEquals("", out.toString());
            assertTrue(!dataDir.resolve("sessions").toFile().exists() || dataDir.resolve("sessions").toFile().list().length == 0,
                    "nothing was started");
        }
        assertTrue(err("--fail-on", "").contains("would end the session at its first line of output"));
        // Rules that match some lines only, an empty line included, are what they look like.
        spec("--fail-on", "ERROR", "--highlight", "^$", "--notify-on", "(?i)warn", "--", "make").validate();
    }

    @Test
    void aQuotedTildeInTheCwdIsExplained() {
        String err = err("--cwd", "~/runboard-no-such-folder");
        assertTrue(err.contains("does not exist (its '~' is not a home folder: the shell expands only an unquoted ~"), err);
        assertEquals(1, err.strip().lines().count(), err);
        assertTrue(!err("--cwd", dataDir.resolve("no-such-folder").toString()).contains("home folder"));
    }

    private String err(String... options) {
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of("exec", "--data-dir", dataDir.toString()));
        all.addAll(List.of(options));
        all.addAll(List.of("--", "true"));
        RunboardCli.run(all.toArray(String[]::new), new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        return err.toString();
    }

    /** Every option that takes a value, given an empty one, through exec and start: named, said to be empty, nothing started. */
    @Test
    void anEmptyValueIsRefusedNamingTheOptionAndWhatToWrite() throws Exception {
        List<List<String>> cases = List.of(List.of("--shell="), List.of("--cwd="), List.of("--host="), List.of("--timeout="),
                List.of("--grace="), List.of("--preview-bytes="), List.of("--hang-after="), List.of("--hang-after", "5", "--hang-action="),
                List.of("--max-rss="), List.of("--max-cpu="), List.of("--max-cpu", "50", "--max-cpu-for="), List.of("--env="),
                List.of("--env", " "), List.of("--nice="), List.of("--cwd", "  "));
        for (String command : List.of("exec", "start")) {
            for (List<String> options : cases) {
                String last = options.get(options.size() - 1);
                String option = last.endsWith("=") ? last.substring(0, last.length() - 1) : options.get(options.size() - 2);
                List<String> args = new ArrayList<>(List.of(command, "--data-dir", dataDir.toString()));
                args.addAll(options);
                args.addAll(List.of("--", "true"));
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                int code = RunboardCli.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
                String said = err.toString();
                assertEquals(2, code, args + ": " + said);
                assertTrue(said.startsWith("runboard " + command + ": " + option + " is empty"), args + ": " + said);
                assertTrue(said.contains(": give "), "says what to write: " + said);
                assertTrue(!said.contains("  ") && !said.contains("''"), "no hole where the value should be: " + said);
                assertEquals(1, said.lines().count(), said);
                assertEquals("", out.toString());
            }
        }
        assertTrue(!java.nio.file.Files.exists(dataDir.resolve("sessions"))
                || java.nio.file.Files.list(dataDir.resolve("sessions")).findAny().isEmpty(), "nothing started");
        Path afterEmpty = dataDir; // start --after with an empty id, before a supervisor is asked
        StringWriter err = new StringWriter();
        int code = RunboardCli.run(new String[] {"start", "--data-dir", afterEmpty.toString(), "--after=", "--", "true"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().startsWith("runboard start: --after is empty (an unset variable?): give a session id"), err.toString());
    }

    private void assertRefused(String message, String... options) {
        List<String> args = new ArrayList<>(List.of(options));
        args.addAll(List.of("--", "make"));
        CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
                () -> parse(args.toArray(String[]::new)).specOptions.toSpec(), String.join(" ", options));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    private static SessionSpec spec(String... args) {
        return parse(args).specOptions.toSpec();
    }

    private static ExecCommand parse(String... args) {
        ExecCommand cmd = new ExecCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }
}
