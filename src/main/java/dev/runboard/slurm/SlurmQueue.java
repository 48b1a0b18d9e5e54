package dev.runboard.slurm;

import dev.runboard.session.SlurmJob;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Slurm's view of jobs as {@code squeue} gives it: the one call that asks about them, and how its answer reads. */
final class SlurmQueue {
    /** Slurm's states of a job that is not over (squeue %T). */
    static final Set<String> ACTIVE = Set.of("PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED",
            "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD", "SPECIAL_EXIT");

    private SlurmQueue() {
    }

    /** A job as squeue shows it, with when Slurm ended it (an ended job's; null otherwise or when not said). */
    record Seen(SlurmJob job, Instant endedAt) {
        boolean active() {
            return ACTIVE.contains(job.state());
        }
    }

    /** The squeue call that asks Slurm about these jobs, in every state. */
    static List<String> arguments(List<String> jobIds) {
        return List.of("squeue", "-h", "-t", "all", "-j", String.join(",", jobIds), "-o", "%i|%T|%N|%P|%e|%r");
    }

    /**
     * Slurm's view of the jobs {@link #arguments} asked about, by id; a job Slurm no longer knows is absent. Its times
     * are in {@code zone}, the time zone squeue ran in.
     */
    static Map<String, Seen> read(SlurmCommand.Result r, ZoneId zone) throws IOException {
        if (!r.ok() && !r.said().contains("Invalid job id")) {
            throw new IOException("squeue: " + r.said());
        }
        Map<String, Seen> jobs = new LinkedHashMap<>();
        for (String line : r.out().split("\n")) {
            String[] f = line.strip().split("\\|", 6);
            if (f.length == 6 && !f[0].isEmpty()) {
                SlurmJob job = new SlurmJob(f[0], f[2].isBlank() ? null : f[2], f[3].isBlank() ? null : f[3], f[1],
                        f[5].isBlank() || f[5].equals("None") ? null : f[5]);
                jobs.put(f[0], new Seen(job, ACTIVE.contains(f[1]) ? null : time(f[4], zone)));
            }
        }
        return jobs;
    }

    /** squeue's time (local time where it ran, to the second), or null when it says none. */
    private static Instant time(String text, ZoneId zone) {
        try {
            return java.time.LocalDateTime.parse(text.strip()).atZone(zone).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }
}
