package dev.runboard.session;

import java.time.Instant;

/**
 * One run of a command, as its history shows it: when it started, how long it took (null while it
 * runs), how it ended and how much it printed.
 */
public record Run(String id, Instant startedAt, Double durationSeconds, SessionStatus status, Integer exitCode,
                  String signal, long outputBytes) {

    public static Run of(SessionSnapshot s) {
        return new Run(s.sessionId(), s.startedAt(), s.status().isTerminal() ? s.elapsedSeconds() : null,
                s.status(), s.exitCode(), s.signal(), s.outputBytes());
    }

    public boolean succeeded() {
        return status == SessionStatus.COMPLETED;
    }

    public boolean ended() {
        return durationSeconds != null;
    }
}
