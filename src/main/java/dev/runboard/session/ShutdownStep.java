package dev.runboard.session;

import java.time.Duration;

/**
 * How every kill of a stack command begins ({@code shutdown:} in runboard.yaml): a shell command run
 * by the session's wrapper, or a signal other than TERM, or both; {@code timeout} (null: the kill's
 * grace) is how long the processes get before the KILL sweep.
 */
public record ShutdownStep(String command, Signal signal, Duration timeout) {
}
