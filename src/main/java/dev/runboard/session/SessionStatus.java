package dev.runboard.session;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where a session is in its life: {@code RUNNING}, then exactly one terminal status. */
public enum SessionStatus {
    RUNNING,
    /** Exit code 0. */
    COMPLETED,
    /** Exit code other than 0, death by a signal nobody in runboard sent, or could not start. */
    FAILED,
    /** The session's own deadline ended it. */
    TIMEOUT,
    /** A person or the CLI ended it. */
    KILLED,
    /** It ended while no runboard was watching and left no exit status: runboard cannot say how it ended. */
    UNKNOWN;

    public boolean isTerminal() {
        return this != RUNNING;
    }

    /** The word users see and JSON carries: {@code running}, {@code completed}, ... */
    @JsonValue
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static SessionStatus fromWord(String word) {
        for (SessionStatus s : values()) {
            if (s.word().equals(word)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status '" + word + "' (expected one of running, completed, failed, timeout, killed, unknown)");
    }
}
