package dev.runboard.session;

/** A process as a kill report names it: its pid and command line. */
public record ProcessRef(long pid, String command) {
}
