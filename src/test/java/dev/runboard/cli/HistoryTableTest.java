package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.session.Run;
import dev.runboard.session.RunHistory;
import dev.runboard.session.RunKey;
import dev.runboard.session.SessionStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code runboard history}'s table ends with what is known of the runs, as the History tab says it. */
class HistoryTableTest {
    private static final RunKey KEY = new RunKey("shell", "make test", "/src");

    @Test
    void aCommandStillRunningSaysNoneEndedAndDrawsNoEmptySparkline() {
        String table = HistoryCommand.asTable(new RunHistory(KEY,
                List.of(new Run("20261203-1200-ab12", null, null, SessionStatus.RUNNING, null, null, 0))));
        List<String> lines = table.lines().toList();
        assertEquals("command: make test (shell, in /src)", lines.get(lines.size() - 2));
        assertEquals("1 run \u00b7 none ended yet", lines.get(lines.size() - 1));
    }

    @Test
    void endedRunsGetTheUsualDurationInTheListsWordsAndASparkline() {
        String table = HistoryCommand.asTable(new RunHistory(KEY, List.of(
                new Run("a", null, 70.0, SessionStatus.COMPLETED, 0, null, 0),
                new Run("b", null, 5.0, SessionStatus.FAILED, 1, null, 0))));
        List<String> lines = table.lines().toList();
        assertEquals("2 runs \u00b7 success rate 50 % \u00b7 usually 1m10s (its one success)", lines.get(lines.size() - 2));
        assertEquals("durations: \u2588\u2582", lines.get(lines.size() - 1));
    }
}
