package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.store.Json;
import dev.runboard.testing.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs of one command with real processes: their history, progress against earlier runs, and diffs between them. */
class RunsCliTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path work;

    /**
     * 100 numbered lines over about 3 s: a test suite printing a line per test. The pause comes from
     * a file, so a slower run is the same command. One process prints line i at its start plus i pauses,
     * by the clock, catching up when it was held up: on a loaded machine a sleep per line (a fork each,
     * or a wake-up late each time) stretched one run and not another, and the estimate rightly called an
     * unchanged command "longer than usual", or read an uneven pace as a wrong midpoint.
     */
    private static final String HUNDRED_LINES = "perl -MTime::HiRes=time,sleep -e '$| = 1; open(my $f, \"<\", \"pause\") or die;"
            + " chomp(my $d = <$f>); my $t0 = time;"
            + " for my $i (1 .. 100) { print \"test $i ok\\n\"; my $left = $t0 + $i * $d - time; sleep($left) if $left > 0 }'";

    @Test
    void aFourthRunsProgressAtItsMidpointIsWithinTenPointsAndARunTwiceAsLongIsLongerThanUsual() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            Files.writeString(work.resolve("pause"), "0.03");
            for (int run = 0; run < 3; run++) {
                String id = start(fx, HUNDRED_LINES);
                assertEquals(0, fx.cli("wait", id).exit());
            }
            String fourth = start(fx, HUNDRED_LINES);
            List<double[]> samples = new ArrayList<>(); // elapsed, progress (NaN when null), output bytes, 1 when by output
            JsonNode last;
            do {
                last = json(fx.cli("show", fourth).out());
                if (last.path("status").asText().equals("running")) {
                    samples.add(new double[] {last.path("elapsed_seconds").asDouble(),
                        last.hasNonNull("progress") ? last.get("progress").asDouble() : Double.NaN,
                        last.path("output_bytes").asDouble(), last.path("progress_basis").asText().equals("output") ? 1 : 0});
                    assertFalse(last.path("longer_than_usual").asBoolean(), "a usual run is not longer than usual");
                }
                Poll.pause(Integer.MAX_VALUE); // a sample every 50 ms: asking without a pause kept the supervisor busy answering
            } while (last.path("status").asText().equals("running"));
            assertEquals("completed", last.path("status").asText());
            double duration = last.path("elapsed_seconds").asDouble();
            double total = last.path("output_bytes").asDouble();
            double[] mid = samples.stream().min((x, y) -> Double.compare(Math.abs(x[0] - duration / 2), Math.abs(y[0] - duration / 2)))
                    .orElseThrow();
            assertTrue(Math.abs(mid[0] - duration / 2) < duration / 4, "a sample near the midpoint: " + mid[0] + " of " + duration);
            // The truth at a sample, known only now, is what the estimate's predictor reads (progress_basis):
            // by output, how much of the suite had run (its tests printed by then over all of them); by time,
            // how much of the run's time had passed. On a loaded machine the two part: the shell and perl took
            // 0.6 s to start in one run, and at half its time 37 of its 100 tests had run.
            double truth = mid[3] == 1 ? mid[2] / total : mid[0] / duration;
            assertFalse(Double.isNaN(mid[1]), "three earlier successful runs give a progress");
            assertTrue(Math.abs(mid[1] - truth) <= 0.10, "progress " + mid[1] + " by " + (mid[3] == 1 ? "output" : "time")
                    + " at " + mid[0] + " s of " + duration + " s, with " + (long) mid[2] + " of " + (long) total + " bytes printed");
            assertTrue(last.isNull() || last.path("progress").isNull(), "an ended run has no progress");

            Files.writeString(work.resolve("pause"), "0.06");
            String slow = start(fx, HUNDRED_LINES);
            double longest = history(fx, fourth).path("runs").findValues("duration_seconds").stream()
                    .mapToDouble(JsonNode::asDouble).max().orElseThrow();
            JsonNode shown;
            do {
                shown = json(fx.cli("show", slow).out());
                Poll.pause(Integer.MAX_VALUE);
            } while (shown.path("status").asText().equals("running") && shown.path("elapsed_seconds").asDouble() <= longest * dev.runboard.session.RunEstimate.TIME_MARGIN + 0.3);
            assertEquals("running", shown.path("status").asText(), "still running past the longest earlier run, "
                    + longest + " s: " + shown);
            assertTrue(shown.path("longer_than_usual").asBoolean(), shown.toString());
            assertTrue(shown.path("progress").isNull() && shown.path("eta_seconds").isNull(), "no bar that is confidently wrong");
            String listed = fx.cli("list").out();
            assertTrue(listed.lines().anyMatch(l -> l.startsWith(slow) && l.contains("longer than usual")), listed);
            assertEquals(0, fx.cli("kill", slow, "--grace", "1").exit());
        }
    }

    @Test
    void historyAndDiffOfACommandWhoseLogDiffersOnlyInTimings() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            Files.writeString(work.resolve("log.txt"), MAVEN.formatted("0.352", "4.211", "09:41:07"));
            String first = start(fx, "cat log.txt");
            assertEquals(0, fx.cli("wait", first).exit());
            Files.writeString(work.resolve("log.txt"), MAVEN.formatted("1.07", "13.9", "17:03:55"));
            String second = start(fx, "cat log.txt");
            assertEquals(0, fx.cli("wait", second).exit());

            SupervisorFixture.Result plain = fx.cli("diff", second);
            assertEquals(1, plain.exit(), plain.err());
            assertTrue(plain.out().startsWith("--- " + first + "\n+++ " + second + "\n"), plain.out());
            assertTrue(plain.out().contains("\n-[INFO] Total time:  4.211 s\n"), plain.out());
            assertTrue(plain.out().contains("\n+[INFO] Total time:  13.9 s\n"), plain.out());
            SupervisorFixture.Result ignoring = fx.cli("diff", "--ignore-volatile", second);
            assertEquals(0, ignoring.exit(), ignoring.out() + ignoring.err());
            assertEquals("", ignoring.out(), "outputs that compare equal print nothing, as diff(1)");
            assertEquals(0, fx.cli("diff", "--ignore-volatile", first, second).exit());
            SupervisorFixture.Result brief = fx.cli("diff", "-q", first, second);
            assertEquals(1, brief.exit());
            assertTrue(brief.out().contains("first at line 2 of " + first), brief.out());
            SupervisorFixture.Result none = fx.cli("diff", first);
            assertEquals(2, none.exit(), "no earlier run: trouble");
            assertTrue(none.err().contains("no run of the same command before " + first), none.err());
            assertEquals(2, fx.cli("diff", "nosuchid").exit());

            SupervisorFixture.Result table = fx.cli("history", second);
            assertEquals(0, table.exit(), table.err());
            assertTrue(table.out().contains(first) && table.out().contains(second), table.out());
            assertTrue(table.out().contains("2 runs \u00b7 success rate 100 % \u00b7 usually "), table.out());
            assertTrue(table.out().contains(" (median of the last 2 successful)\ndurations: "), table.out());
            JsonNode history = json(fx.cli("history", "--json", "--command", "cat log.txt").out());
            assertEquals(2, history.path("runs").size());
            assertEquals(1.0, history.path("success_rate").asDouble());
            assertEquals(2, history.path("sparkline").asText().length());
            assertEquals(2, fx.cli("history", "--command", "no such command").exit());

            String third = start(fx, "cat log.txt");
            assertEquals(0, fx.cli("wait", third).exit());
            SupervisorFixture.Result equal = fx.cli("diff", third);
            assertEquals(0, equal.exit(), equal.err());
            assertEquals("", equal.out(), "equal outputs: no ---/+++ header");
        }
    }

    private static final String MAVEN = """
            [INFO] Building demo 1.0-SNAPSHOT
            [INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: %s s - in dev.demo.AppTest
            [INFO] BUILD SUCCESS
            [INFO] Total time:  %s s
            [INFO] Finished at: 2026-12-01T%s+01:00
            """;

    private String start(SupervisorFixture fx, String command) {
        return fx.start("--shell", "/bin/sh", "--cwd", work.toString(), "--", command);
    }

    private static JsonNode history(SupervisorFixture fx, String id) throws Exception {
        return json(fx.cli("history", "--json", id).out());
    }

    private static JsonNode json(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }
}
