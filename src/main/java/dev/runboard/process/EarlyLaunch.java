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
        long me = ProcessHandle.current().pid();
        return parse(System.getenv(VARIABLE)).flatMap(e -> ProcessHandle.of(e.pid)
                .filter(h -> h.parent().map(p -> p.pid() == me).orElse(false)) // one /proc read, not a walk of all
                .map(child -> new EarlyLaunch(child, e.launchedAt, e.id)));
    }

    private record Named(long pid, Instant launchedAt, String id) {
    }

    private static Optional<Named> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String[] f = value.split(" ");
        try {
            if (f.length == 3 && SessionId.isValid(f[2])) {
                return Optional.of(new Named(Long.parseLong(f[0]), Instant.ofEpochMilli(Long.parseLong(f[1])), f[2]));
            }
        } catch (NumberFormatException e) {
            // not one: below
        }
        return Optional.empty();
    }
}
