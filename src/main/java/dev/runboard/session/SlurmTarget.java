package dev.runboard.session;

import java.util.List;

/**
 * A session that runs as a Slurm batch job ({@code --slurm}, {@code slurm:} in runboard.yaml):
 * {@code sbatch} holds the arguments given for {@code sbatch}, passed as given (partition, gres,
 * time, account...), after runboard's own defaults so that the user's win (docs/CLUSTERS.md).
 */
public record SlurmTarget(List<String> sbatch) {
    /** {@code --slurm} with no {@code --sbatch}: Slurm's defaults (the default partition). */
    public static final SlurmTarget DEFAULTS = new SlurmTarget(List.of());

    public SlurmTarget {
        sbatch = sbatch == null ? List.of() : List.copyOf(sbatch);
    }

    /**
     * sbatch options runboard sets for every job, and why: the user's arguments come after runboard's, so one of
     * these would win and break what the session promises. Matched as sbatch reads them: the long name or an
     * abbreviation of three letters or more (getopt takes any unambiguous one), with or without {@code =VALUE}, or
     * the short letter with or without its value attached.
     */
    private record Owned(String longName, String shortName, String why) {
        boolean matches(String argument) {
            if (shortName != null && argument.startsWith(shortName)) {
                return true;
            }
            if (!argument.startsWith("--")) {
                return false;
            }
            int equals = argument.indexOf('=');
            String name = equals < 0 ? argument : argument.substring(0, equals);
            return name.length() >= 5 && longName.startsWith(name); // three letters at least: "--e" could be --export
        }
    }

    /**
     * {@link #OWNED}'s names for help texts (an annotation's text must be a constant, so it cannot be built from the
     * list; SlurmTargetTest holds the two to the same names in the same order).
     */
    public static final String RUNBOARDS_OPTIONS = "--output, --error, --open-mode, --chdir, --array, --requeue, --wrap,"
            + " --wait or --test-only";

    private static final List<Owned> OWNED = List.of(
            new Owned("--output", "-o", "the job's output is the session's capture (shown, followed, kept as its artifact)"),
            new Owned("--error", "-e", "the job's errors go into the session's capture with its output"),
            new Owned("--open-mode", null, "the job's output is the session's capture, appended to"),
            new Owned("--chdir", "-D", "the job starts in the session's folder, which the session shows and records (give"
                    + " that with --cwd)"),
            new Owned("--array", "-a", "one session is one job: start one session per task"),
            new Owned("--requeue", null, "a requeued job would run the command twice under one session"),
            new Owned("--wrap", null, "the job's script is runboard's (it runs the command under its wrapper)"),
            new Owned("--wait", "-W", "sbatch must hand back the job's id at once: runboard follows the job itself"),
            new Owned("--test-only", null, "runboard asks sbatch --test-only itself before it submits the job"));

    /** The long names of the options runboard keeps to itself, in {@link #OWNED}'s order. */
    static List<String> runboardsOptions() {
        return OWNED.stream().map(Owned::longName).toList();
    }

    /**
     * Refuses what a new session may not ask of sbatch: an argument it would misread ({@link #checkWellFormed}) or
     * one that sets what runboard sets for every job ({@link #OWNED}), naming why. Every way a spec comes in (the
     * CLI, runboard.yaml, the window, a client's request) passes here.
     */
    public SlurmTarget check() {
        checkWellFormed();
        for (String a : sbatch) {
            for (Owned owned : OWNED) {
                if (owned.matches(a.strip())) {
                    throw new InvalidSpecException("slurm", "--sbatch '" + a + "' is runboard's to set (" + owned.longName()
                            + "): " + owned.why() + ". Leave it out");
                }
            }
        }
        return this;
    }

    /**
     * Refuses an argument sbatch would misread: empty, or holding a NUL or a newline (it goes into no script, but
     * still). A session's record is held to this only: one written before an option became runboard's still loads.
     */
    public SlurmTarget checkWellFormed() {
        for (String a : sbatch) {
            if (a == null || a.isBlank() || a.indexOf('\0') >= 0 || a.indexOf('\n') >= 0) {
                throw new InvalidSpecException("slurm", "--sbatch " + (a == null ? "null" : "'" + a + "'")
                        + " is not an sbatch argument: give one such as --partition=debug");
            }
        }
        return this;
    }
}
