package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** exec's options, read by picocli as every subcommand's are: each applied, and each misuse one line, exit 2, nothing run. */
class ExecOptionsTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path work;

    private record Result(int exit, String out, String err) {
    }

    private Result exec(String... args) {
        List<String> all = new ArrayList<>(List.of("exec", "--data-dir", dataDir.toString()));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = RunboardCli.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exit, out.toString(), err.toString());
    }

    @Test
    void aCommandLineRunsWithEveryOptionApplied() throws Exception {
        Result r = exec("--no-shell", "--env", "GREETING=hi", "--env=OTHER=x=y", "--cwd", work.toString(),
                "--timeout", "30s", "--grace=1", "--preview-bytes", "4K", "--nice", "3", "--highlight", "WARN",
                "--", "sh", "-c", "echo $GREETING $OTHER; pwd; exit 4");
        assertEquals(4, r.exit(), r.err());
        JsonNode j = Json.mapper().readTree(r.out());
        assertEquals("failed", j.get("status").asText());
        assertEquals("hi x=y\n" + work.toRealPath() + "\n", j.get("output").asText());
        assertEquals(30.0, j.get("timeout_seconds").asDouble());
        assertEquals(1.0, j.get("grace_seconds").asDouble());
        assertEquals(3, j.get("nice").asInt());
        assertEquals("", r.err());
    }

    @Test
    void eachMisuseIsOneLineAndExitTwoBeforeAnythingRuns() {
        List<List<String>> misuses = List.of(
                List.of("--"),
                List.of("--bogus", "--", "true"),
                List.of("--timeout", "xyz", "--", "true"),
                List.of("--nice", "abc", "--", "true"),
                List.of("--pty", "--pty", "--", "true"),
                List.of("--timeout", "5", "--timeout", "6", "--", "true"),
                List.of("--shell", "/bin/sh", "--no-shell", "--", "true"),
                List.of("--env", "NOEQUALS", "--", "true"),
                List.of("--hang-action", "kill", "--", "true"));
        for (List<String> args : misuses) {
            Result r = exec(args.toArray(String[]::new));
            assertEquals(2, r.exit(), args + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), args + ": " + r.err());
            assertTrue(r.err().startsWith("runboard exec: "), args + ": " + r.err());
            assertEquals("", r.out(), args.toString());
        }
        assertTrue(!dataDir.resolve("sessions").toFile().exists() || dataDir.resolve("sessions").toFile().list().length == 0,
                "nothing was started");
    }
}
