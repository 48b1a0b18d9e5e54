package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.store.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code exec --max-output} as a user runs it, then {@code tail} and {@code grep} on what was kept. */
class BoundedOutputCliTest {
    @TempDir
    Path dataDir;

    @TempDir
    Path probeDir;

    /** 8 MB of numbered lines, paced by the capture's size (see BoundedOutputTest), then the last number. */
    private static final String COMMAND = "perl -e '$| = 1; my $n = 0; for (1 .. 128) { my $c = q(); while (length($c) < 65536) { $n++;"
            + " $c .= qq(line $n\\n) } print $c; my $t = time; while (-s STDOUT > 1048576) { exit 3 if time - $t > 20;"
            + " select(undef, undef, undef, 0.002) } } print qq(last $n\\n)'";

    private void assumeCollapseRange() throws Exception {
        Path probe = probeDir.resolve("collapse-probe");
        Files.write(probe, new byte[8192]);
        Process p = new ProcessBuilder("fallocate", "--collapse-range", "--offset", "0", "--length", "4096", probe.toString())
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        Assumptions.assumeTrue(p.waitFor() == 0, "the temp folder's file system cannot collapse a range");
    }

    @Test
    void theSettingBoundsWhatTheSupervisorStarts() throws Exception {
        assumeCollapseRange();
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            SupervisorFixture.Result set = fx.cli("config", "set", "default_max_output", "1M");
            assertEquals(0, set.exit(), set.err());
            String id = fx.start("--shell", "/bin/sh", "--", COMMAND);
            SupervisorFixture.Result waited = fx.cli("wait", id);
            assertEquals(0, waited.exit(), waited.err());
            JsonNode snap = Json.mapper().readTree(fx.cli("show", id).out());
            assertTrue(snap.get("output_dropped_bytes").asLong() > 6_000_000, snap.toString());
            assertTrue(snap.get("events").toString().contains("output trimmed to 1 MiB"), snap.toString());
        }
    }

    @Test
    void tailFollowingFromTheStartPrintsOnlyWholeLinesWhileTheStartIsCut() throws Exception {
        assumeCollapseRange();
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            SupervisorFixture.Result tail = fx.cli("tail", "-f", fx.start("--max-output", "1M", "--shell", "/bin/sh", "--", COMMAND));
            assertEquals(0, tail.exit(), tail.err());
            String[] lines = tail.out().split("\n");
            long previous = 0;
            int cutMidLine = 0;
            for (int i = 0; i < lines.length - 1; i++) {
                if (previous > 0 && ("line " + (previous + 1)).startsWith(lines[i]) && !lines[i].equals("line " + (previous + 1))) {
                    cutMidLine++; // the start of a line whose rest was dropped before it was printed: ended there
                    continue;
                }
                assertTrue(lines[i].matches("line \\d+"), "a line as written, never bytes of a moved range: '" + lines[i] + "'");
                long n = Long.parseLong(lines[i].substring(5));
                assertTrue(n > previous, "in order: " + n + " after " + previous);
                previous = n;
            }
            assertTrue(cutMidLine <= tail.err().split("more bytes were dropped", -1).length - 1,
                    "a line is ended early only where tail says it was overtaken: " + tail.err());
            assertTrue(lines[lines.length - 1].matches("last \\d+"), lines[lines.length - 1]);
        }
    }

    @Test
    void execKeepsTheNewestOutputAndTailAndGrepReadItFromItsFirstWholeLine() throws Exception {
        assumeCollapseRange();
        String command = COMMAND;
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            SupervisorFixture.Result exec = fx.cli("exec", "--max-output", "1M", "--shell", "/bin/sh", "--", command);
            assertEquals(0, exec.exit(), exec.err());
            JsonNode snap = Json.mapper().readTree(exec.out());
            long dropped = snap.get("output_dropped_bytes").asLong();
            assertTrue(dropped > 6_000_000, exec.out());
            String id = snap.get("session_id").asText();

            SupervisorFixture.Result tail = fx.cli("tail", id);
            assertEquals(0, tail.exit(), tail.err());
            assertTrue(tail.err().contains(dropped + " bytes dropped"), "tail says how much was dropped: " + tail.err());
            assertTrue(tail.out().matches("(?s)line \\d+\n.*"), "the output starts at a whole line");
            String[] lines = tail.out().split("\n");
            long first = Long.parseLong(lines[0].substring(5));
            for (int i = 0; i < lines.length - 1; i++) {
                assertEquals("line " + (first + i), lines[i], "kept lines in order");
            }
            assertEquals("last " + (first + lines.length - 2), lines[lines.length - 1], "the command's last line");

            SupervisorFixture.Result grep = fx.cli("grep", "last \\d+");
            assertEquals(0, grep.exit(), grep.err());
            assertTrue(grep.out().contains(lines[lines.length - 1]), grep.out());
        }
    }
}
