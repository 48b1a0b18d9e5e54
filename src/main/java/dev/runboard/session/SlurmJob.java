package dev.runboard.session;

/**
 * A Slurm session's job as Slurm last told it: its id, the node it runs on and its partition
 * (null until known), Slurm's state word ({@code PENDING}, {@code RUNNING}, {@code COMPLETED},
 * {@code CANCELLED}, {@code NODE_FAIL}...) and Slurm's reason ({@code squeue %r}: {@code Resources},
 * {@code BeginTime}...; null when {@code None}). The snapshot's {@code slurm} object (docs/CLUSTERS.md).
 */
public record SlurmJob(String jobId, String node, String partition, String state, String reason) {
    /** Slurm's state of a job it holds before it runs. */
    public static final String PENDING = "PENDING";
    /** Why a job killed while Slurm held it ended: the same words as a waiting session's (issue #17). */
    public static final String CANCELLED_BEFORE_START = "cancelled before it started";

    /** Just submitted: the id sbatch gave, nothing else known yet. */
    public static SlurmJob submitted(String jobId, String partition) {
        return new SlurmJob(jobId, null, partition, PENDING, null);
    }

    /** Whether Slurm holds the job before it runs: the session reads {@code pending}, with Slurm's reason. */
    public boolean isPending() {
        return PENDING.equals(state);
    }

    /** What a pending session's reason says. */
    public String pendingReason() {
        return "Slurm holds job " + jobId + (reason == null ? "" : ": " + reason);
    }
}
