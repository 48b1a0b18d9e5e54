package dev.runboard.ui.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.session.Run;
import dev.runboard.session.RunHistory;
import dev.runboard.session.RunKey;
import dev.runboard.session.SessionStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The History tab's summary line says what is known, and nothing about runs that are not there. */
class HistorySummaryTest {
    private static final RunKey KEY = new RunKey("shell", "make test", "/src");

    private static Run run(SessionStatus status, Double seconds) {
        return new Run("r", Instant.EPOCH, seconds, status, status == SessionStatus.COMPLETED ? 0 : 1, null, 10);
    }

    @Test
    void eachPartOnceThereIsSomethingToSay() {
        assertEquals("1 run \u00b7 none ended yet", HistoryTab.summaryOf(new RunHistory(KEY, List.of(run(SessionStatus.RUNNING, null)))));
        assertEquals("2 runs \u00b7 success rate 0 % \u00b7 none succeeded yet", HistoryTab.summaryOf(new RunHistory(KEY,
                List.of(run(SessionStatus.FAILED, 3.0), run(SessionStatus.RUNNING, null)))));
        assertEquals("2 runs \u00b7 success rate 50 % \u00b7 usually 12 s (its one success)", HistoryTab.summaryOf(new RunHistory(KEY,
                List.of(run(SessionStatus.FAILED, 3.0), run(SessionStatus.COMPLETED, 12.0)))));
        assertEquals("3 runs \u00b7 success rate 100 % \u00b7 usually 11 s (median of the last 3 successful)",
                HistoryTab.summaryOf(new RunHistory(KEY, List.of(run(SessionStatus.COMPLETED, 10.0),
                        run(SessionStatus.COMPLETED, 11.0), run(SessionStatus.COMPLETED, 14.0)))));
    }
}
