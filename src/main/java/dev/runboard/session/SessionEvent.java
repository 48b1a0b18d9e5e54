package dev.runboard.session;

import java.time.Instant;

/**
 * Something that happened to a session worth keeping with it: {@code kind} is one of the
 * Contract's words ({@code hang}, {@code guard}, {@code rule}, {@code stdin}, {@code supervisor},
 * and later {@code probe}, {@code restart}, {@code connection}).
 */
public record SessionEvent(Instant time, String kind, String message) {
    public static final String HANG = "hang";
    public static final String GUARD = "guard";
    public static final String RULE = "rule";
    public static final String STDIN = "stdin";
    public static final String SUPERVISOR = "supervisor";
    public static final String CONNECTION = "connection";
    /** Something about ending the session's processes: its wrapper lost, a kill. */
    public static final String KILL = "kill";
    /** Something about the capture: trimmed to max_output, or it cannot be. */
    public static final String OUTPUT = "output";
    /** What Slurm did with a Slurm session's job: held it (why), ran it (where), ended it. */
    public static final String SLURM = "slurm";
    /** A session keeps at most this many events, the newest. */
    public static final int LIMIT = 100;
}
