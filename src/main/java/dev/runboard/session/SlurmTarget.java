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

    /** Refuses an argument sbatch would misread: empty, or holding a NUL or a newline (it goes into no script, but still). */
    public SlurmTarget check() {
        for (String a : sbatch) {
            if (a == null || a.isBlank() || a.indexOf('\0') >= 0 || a.indexOf('\n') >= 0) {
                throw new InvalidSpecException("slurm", "--sbatch " + (a == null ? "null" : "'" + a + "'")
                        + " is not an sbatch argument: give one such as --partition=debug");
            }
        }
        return this;
    }
}
