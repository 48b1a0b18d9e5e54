package dev.runboard.session;

/**
 * The exit code that stands for a session's end, as {@code exec} and {@code wait} exit with it: the
 * command's own, 124 for a timeout (like coreutils timeout(1)), 125 when it could not start or its
 * exit is unknown (like env(1)), and 1 when an output rule failed a command that itself exited 0.
 * A command an output rule killed while it ran keeps the code of its death, 128 + the signal (143
 * for TERM), as a shell reports it: the record has that exit code and the session is failed.
 * Here, not in the CLI, because the supervisor answers an exec it adopted with it too.
 */
public final class ExecExitCode {
    /** Like coreutils timeout(1). */
    public static final int TIMEOUT = 124;
    /** Like env(1) when it cannot run the program. */
    public static final int COULD_NOT_START = 125;

    private ExecExitCode() {
    }

    public static int of(SessionSnapshot s) {
        return of(s.status(), s.exitCode());
    }

    public static int of(SessionStatus status, Integer exitCode) {
        return switch (status) {
            case TIMEOUT -> TIMEOUT;
            case RUNNING, PAUSED, PENDING, QUEUED -> throw new IllegalStateException("exec returns only after the session ends");
            // an output rule failed a command that itself exited 0: scripts must not read that as success
            case FAILED -> exitCode == null ? COULD_NOT_START : exitCode == 0 ? 1 : exitCode;
            default -> exitCode == null ? COULD_NOT_START : exitCode;
        };
    }
}
