package dev.runboard.process;

import dev.runboard.session.SessionId;
import java.time.Instant;
import java.util.Optional;

/**
 * A command bin/runboard launched before this JVM started, for {@code exec} to adopt
 * (docs/BENCHMARKS.md §10, round 11): the JVM's start then overlaps the command instead of
 * preceding it. The script made the session's folder under the id it chose, started runboard's
 * wrapper there with the output going to the capture, and exec'd into this JVM, so the wrapper is
 * this process's own child. It says so in {@code RUNBOARD_EARLY}: {@code PID EPOCH_MS SESSION_ID}.
 * The wrapper ends the command itself if this JVM dies before the session's record exists.
 */
public record EarlyLaunch(ProcessHandle wrapper, Instant launchedAt, String id) {
    public static final String VARIABLE = "RUNBOARD_EARLY";

    /**
     * The launch this JVM was started to adopt, or empty: none, a value that is not one, or a pid
     * that is not this JVM's child (a variable inherited by some later runboard is never adopted).
     */
    public static Optional<EarlyLaunch> fromEnvironment() {
        // Plain code, no lambdas: this runs while the command does, and each lambda shape the class-data
        // archive lacks (its training is no early launch) cost method-handle spinning (docs/BENCHMARKS.md §10).
        Named named = parse(System.getenv(VARIABLE));
        Optional<ProcessHandle> child = named == null ? Optional.empty() : ProcessHandle.of(named.pid);
        if (child.isEmpty()) {
            return Optional.empty();
        }
        Optional<ProcessHandle> parent = child.get().parent(); // one /proc read, not a walk of all
        if (parent.isEmpty() || parent.get().pid() != ProcessHandle.current().pid()) {
            return Optional.empty();
        }
        return Optional.of(new EarlyLaunch(child.get(), named.launchedAt, named.id));
    }

    private record Named(long pid, Instant launchedAt, String id) {
    }

    /** The value's three fields, or null when it is not one. */
    private static Named parse(String value) {
        if (value == null) {
            return null;
        }
        String[] f = value.split(" ");
        try {
            if (f.length == 3 && SessionId.isValid(f[2])) {
                return new Named(Long.parseLong(f[0]), Instant.ofEpochMilli(Long.parseLong(f[1])), f[2]);
            }
        } catch (NumberFormatException e) {
            // not one: below
        }
        return null;
    }
}
