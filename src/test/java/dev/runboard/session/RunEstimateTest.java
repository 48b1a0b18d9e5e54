package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress predictor: which one it picks from the earlier runs, and when it refuses to guess. */
class RunEstimateTest {
    private static final RunKey KEY = new RunKey("shell", "make test", "/src");

    @Test
    void aSuiteWhoseOutputIsSteadierThanItsTimeIsJudgedByOutput() {
        RunEstimate e = RunEstimate.from(history(new double[] {60, 90, 75}, new long[] {10_000, 10_000, 10_100}));
        assertEquals("output", e.basis());
        RunProgress p = e.at(30, 5_000);
        assertEquals(0.5, p.progress(), 0.01, "half the usual output is half way, whatever the clock says");
        assertEquals(30, p.etaSeconds(), 1, "at this run's own pace");
    }

    @Test
    void outputThatCameInABurstIsNotTrustedEvenWhenItsSizeIsSteady() {
        RunHistory h = history(new double[] {60, 90, 75}, new long[] {10_000, 10_000, 10_100});
        // The runner: 65 % of its bytes in the first seconds, then silence; at its midpoint
        // it had printed nearly all of it, so by output it would read 0.8 done with the time left rising.
        RunEstimate bursty = RunEstimate.from(h, run -> 0.95);
        assertEquals("time", bursty.basis());
        assertEquals(0.5, bursty.at(37.5, 9_500).progress(), 0.01, "half the usual time is half way");
        // The same sizes printed evenly (a line per test): output, as without a time index.
        assertEquals("output", RunEstimate.from(h, run -> 0.5).basis());
        assertEquals("output", RunEstimate.from(h, run -> Double.NaN).basis(), "unknown shares are taken as even");
    }

    @Test
    void aJobWithSteadyTimeButVaryingOutputIsJudgedByTime() {
        RunEstimate e = RunEstimate.from(history(new double[] {100, 101, 99}, new long[] {100, 5_000, 40_000}));
        assertEquals("time", e.basis());
        assertEquals(0.25, e.at(25, 1).progress(), 0.01);
        assertEquals(75, e.at(25, 1).etaSeconds(), 0.5);
    }

    @Test
    void beyondEveryEarlierRunItSaysLongerThanUsualInsteadOfAFullBar() {
        RunEstimate e = RunEstimate.from(history(new double[] {10, 11, 12}, new long[] {500, 500, 500}));
        assertFalse(e.at(12.5, 400).longerThanUsual(), "a few percent past the longest run is jitter, not longer than usual");
        RunProgress p = e.at(14.5, 400);
        assertTrue(p.longerThanUsual(), "20 % past the longest run is longer than usual");
        assertNull(p.progress());
        assertNull(p.etaSeconds());
        assertTrue(e.at(11, 600).longerThanUsual(), "more output than any earlier run: also beyond them");
        assertTrue(e.at(11.9, 499).progress() <= 0.99, "a running session never reads 100 %");
    }

    @Test
    void fewerThanTwoSuccessfulRunsGiveNoEstimate() {
        List<Run> runs = new ArrayList<>(history(new double[] {10}, new long[] {100}).runs());
        runs.add(new Run("failed", Instant.EPOCH, 3.0, SessionStatus.FAILED, 1, null, 10));
        RunEstimate e = RunEstimate.from(new RunHistory(KEY, runs));
        assertFalse(e.known());
        assertEquals(RunProgress.NONE, e.at(5, 50));
    }

    @Test
    void theHistoryCountsSuccessAndTakesTheMedianOfTheRecentGoodRuns() {
        List<Run> runs = new ArrayList<>(history(new double[] {1, 2, 3, 100}, new long[] {1, 1, 1, 1}).runs());
        runs.add(new Run("bad", Instant.EPOCH, 500.0, SessionStatus.FAILED, 2, null, 1));
        runs.add(new Run("now", Instant.EPOCH, null, SessionStatus.RUNNING, null, null, 1));
        RunHistory h = new RunHistory(KEY, runs);
        assertEquals(0.8, h.successRate(), 1e-9);
        assertEquals(2.5, h.medianSuccessSeconds(), 1e-9);
        assertEquals(5, h.sparkline().length());
        assertEquals("bad", h.previous("now").orElseThrow().id());
        assertEquals("r3", h.lastGreen("now").orElseThrow().id());
    }

    private static RunHistory history(double[] seconds, long[] bytes) {
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < seconds.length; i++) {
            runs.add(new Run("r" + i, Instant.EPOCH.plusSeconds(i * 1000L), seconds[i], SessionStatus.COMPLETED, 0, null, bytes[i]));
        }
        return new RunHistory(KEY, runs);
    }
}
