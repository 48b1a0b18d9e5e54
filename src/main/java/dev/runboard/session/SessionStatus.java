package dev.runboard.session;

/**
 * Where a session is in its life: waiting ({@code PENDING} or {@code QUEUED}), then {@code RUNNING}
 * (or {@code PAUSED} while stopped by STOP), then exactly one terminal status. The words are the
 * Contract's (DESIGN.md): the table, {@code list} and JSON all show them.
 */
public enum SessionStatus {
    /** Not started yet: waiting for its dependencies, a delay, or a restart's backoff ({@code reason} says which). */
    PENDING,
    /** Not started yet: waiting for a slot in its queue. */
    QUEUED,
    RUNNING,
    /** Running, but stopped by SIGSTOP (Pause); CONT resumes it. */
    PAUSED,
    /** Exit code 0. */
    COMPLETED,
    /** Exit code other than 0, death by a signal nobody in runboard sent, or could not start. */
    FAILED,
    /** The session's own deadline ended it. */
    TIMEOUT,
    /** A person or the CLI ended it. */
    KILLED,
    /** It ended while no runboard was watching and left no exit status: runboard cannot say how it ended. */
    UNKNOWN,
    /** Never started: a dependency can no longer meet its condition. */
    SKIPPED;

    /** Made once: a history's statuses are read and shown by their words thousands of times. */
    private final String word = name().toLowerCase(java.util.Locale.ROOT);

    public boolean isTerminal() {
        return switch (this) {
            case PENDING, QUEUED, RUNNING, PAUSED -> false;
            default -> true;
        };
    }

    /** Started and not ended: {@code running} or {@code paused} (its processes exist). */
    public boolean isLive() {
        return this == RUNNING || this == PAUSED;
    }

    /** Not started yet: no process, no output. */
    public boolean isWaiting() {
        return this == PENDING || this == QUEUED;
    }

    /** The word users see and JSON carries ({@code store.Json} writes and reads it): {@code running}, {@code completed}, ... */
    public String word() {
        return word;
    }

    public static SessionStatus fromWord(String word) {
        for (SessionStatus s : values()) {
            if (s.word().equals(word)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status '" + word + "' (expected one of pending, queued, running, paused, completed, failed, timeout, killed, skipped, unknown)");
    }
}
