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
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** exec without picocli: the plain command lines run through it; everything else is left, untouched, to picocli. */
class QuickExecTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path work;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private Optional<Integer> quick(String... args) {
        List<String> all = new ArrayList<>(List.of("--data-dir", dataDir.toString()));
        all.addAll(List.of(args));
        return QuickExec.tryRun(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void aPlainCommandLineRunsWithEveryOptionApplied() throws Exception {
        Optional<Integer> exit = quick("--no-shell", "--env", "GREETING=hi", "--env=OTHER=x=y", "--cwd", work.toString(),
                "--timeout", "30s", "--grace=1", "--preview-bytes", "4K", "--nice", "3", "--highlight", "WARN",
                "--", "sh", "-c", "echo $GREETING $OTHER; pwd; exit 4");
        assertEquals(Optional.of(4), exit);
        JsonNode j = Json.mapper().readTree(out.toString());
        assertEquals("failed", j.get("status").asText());
        assertEquals("hi x=y\n" + work.toRealPath() + "\n", j.get("output").asText());
        assertEquals(30.0, j.get("timeout_seconds").asDouble());
        assertEquals(1.0, j.get("grace_seconds").asDouble());
        assertEquals(3, j.get("nice").asInt());
        assertEquals("", err.toString());
    }

    @Test
    void whatPicocliMustReadOrReportIsLeftToItBeforeAnythingRuns() {
        List<List<String>> handedOver = List.of(
                List.of("--help"),
                List.of("echo", "hi"), // no "--": picocli reads options among the words
                List.of("--"),
                List.of("--bogus", "--", "true"),
                List.of("--timeout", "xyz", "--", "true"),
                List.of("--nice", "abc", "--", "true"),
                List.of("--pty", "--pty", "--", "true"),
                List.of("--timeout", "5", "--timeout", "6", "--", "true"),
                List.of("--cwd", "--pty", "--", "true"),
                List.of("--shell", "/bin/sh", "--no-shell", "--", "true"),
                List.of("--env", "NOEQUALS", "--", "true"),
                List.of("--hang-action", "kill", "--", "true"));
        for (List<String> args : handedOver) {
            assertEquals(Optional.empty(), quick(args.toArray(String[]::new)), args.toString());
        }
        assertEquals("", out.toString() + err.toString());
        assertTrue(!dataDir.resolve("sessions").toFile().exists() || dataDir.resolve("sessions").toFile().list().length == 0,
                "nothing was started");
    }
}
