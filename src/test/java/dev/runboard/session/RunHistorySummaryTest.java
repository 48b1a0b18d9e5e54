package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The summary the History tab and {@code runboard history} print says what is known, and nothing about
 * runs that are not there, in the duration words its caller gives.
 */
class RunHistorySummaryTest {
    private static final java.util.function.DoubleFunction<String> SECONDS = s -> Math.round(s) + " s";
    private static final RunKey KEY = new RunKey("shell", "make test", "/src");

    private static Run run(SessionStatus status, Double seconds) {
        return new Run("r", Instant.EPOCH, seconds, status, status == SessionStatus.COMPLETED ? 0 : 1, null, 10);
    }

    @Test
    void eachPartOnceThereIsSomethingToSay() {
        assertEquals("1 run \u00b7 none ended yet", new RunHistory(KEY, List.of(run(SessionStatus.RUNNING, null))).summary(SECONDS));
        assertEquals("2 runs \u00b7 success rate 0 % \u00b7 none succeeded yet", new RunHistory(KEY,
                List.of(run(SessionStatus.FAILED, 3.0), run(SessionStatus.RUNNING, null))).summary(SECONDS));
        assertEquals("2 runs \u00b7 success rate 50 % \u00b7 usually 12 s (its one success)", new RunHistory(KEY,
                List.of(run(SessionStatus.FAILED, 3.0), run(SessionStatus.COMPLETED, 12.0))).summary(SECONDS));
        assertEquals("3 runs \u00b7 success rate 100 % \u00b7 usually 11 s (median of the last 3 successful)",
                new RunHistory(KEY, List.of(run(SessionStatus.COMPLETED, 10.0),
                        run(SessionStatus.COMPLETED, 11.0), run(SessionStatus.COMPLETED, 14.0))).summary(SECONDS));
    }
}
