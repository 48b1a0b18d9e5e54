package dev.runboard.session;

/**
 * How every kill of a stack command begins ({@code shutdown:} in runboard.yaml), in place of TERM:
 * a shell command the session's wrapper runs, or else another signal (its name: INT, QUIT, HUP…).
 * Its {@code timeout} is the session's kill grace, so it is not carried here.
 */
public record ShutdownStep(String command, String signal) {
    public ShutdownStep {
        command = command == null || command.isBlank() ? null : command;
        signal = signal == null || signal.isBlank() ? null : signal;
    }

    /** The wrapper's {@code shutdown} file: the signal (or "-") on the first line, the command (or nothing) on the second. */
    public String wrapperFile() {
        return (signal == null ? "-" : signal) + "\n" + (command == null ? "" : command) + "\n";
    }
}
