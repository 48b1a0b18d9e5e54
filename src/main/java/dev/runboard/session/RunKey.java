package dev.runboard.session;

import java.util.Objects;

/**
 * What makes two sessions runs of the same command, so that one's duration says something about
 * the other's: the command as typed, whether a shell ran it or it was an argv, and the working dir.
 */
public record RunKey(String mode, String command, String cwd) {
    public RunKey {
        Objects.requireNonNull(mode);
        Objects.requireNonNull(command);
    }

    public static RunKey of(SessionSpec spec) {
        return new RunKey(spec.usesShell() ? "shell" : "argv", spec.displayCommand(), Session.slashes(spec.cwd()));
    }

    /** The key of a snapshot: its {@code argv} is null exactly when a shell ran the command. */
    public static RunKey of(SessionSnapshot s) {
        return new RunKey(s.argv() == null ? "shell" : "argv", s.command(), s.cwd());
    }
}
