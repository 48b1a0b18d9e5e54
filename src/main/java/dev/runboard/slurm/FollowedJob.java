package dev.runboard.slurm;

import dev.runboard.process.ResourceSampler;
import dev.runboard.process.StandInProcess;
import dev.runboard.process.TreeUsageFrames;
import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.SlurmJob;
import dev.runboard.slurm.SlurmQueue.Seen;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A Slurm job being followed ({@link SlurmSessions}): its session, its stand-in process, where its wrapper writes the
 * exit status. Each poll hands it Slurm's view of the job and its folder's; from these it keeps Slurm's facts with the
 * session, reads the wrapper's usage file, and decides when and how the session ends: with the wrapper's status, or,
 * when Slurm ended the job before the wrapper could record anything, as Slurm says.
 */
final class FollowedJob {
    /** What a followed job tells the sessions that follow it. */
    interface Following {
        Clock clock();

        /** Slurm's facts of the session changed (shown at once). */
        void changed(Session session);

        /** The job is over: it is followed no more, and its site may tidy what it keeps (unless a kill reads it). */
        void ended(Session session);
    }

    /** How long a job may stay in Slurm's queue after its wrapper wrote the status (it exits right after, unless processes linger). */
    static final Duration STATUS_TO_END = Duration.ofSeconds(10);
    /** How many polls in a row must find a job ended without a status before it is lost (a shared disk may show the file late). */
    private static final int POLLS_WITHOUT_STATUS = 3;
    /** States in which Slurm, not the command, ended a job that ran: its wrapper's record of a kill is Slurm's doing. */
    private static final java.util.Set<String> LOST_BY_SLURM = java.util.Set.of("NODE_FAIL", "BOOT_FAIL", "PREEMPTED");
    /** Where a status the wrapper wrote after Slurm had ended the job is kept (it is not the command's own end). */
    static final String OVERRULED = "exit-status.after-slurm";

    /** Looked up only when something is logged. */
    private static Logger log() {
        return Logger.getLogger(FollowedJob.class.getName());
    }

    private final Session session;
    private final StandInProcess process;
    private final Path exitStatusFile;
    private final String jobId;
    private final JobSite site;
    private final Following following;
    /** The job's folder as the last poll found it (null before the first). */
    private JobSite.Facts facts;
    private long statusSeenAt = -1;
    private int endedWithoutStatus;
    private TreeUsageFrames frames;
    private long usageWrittenAt;
    private volatile ResourceSampler.Usage usage;

    FollowedJob(Session session, StandInProcess process, Path exitStatusFile, String jobId, JobSite site, Following following) {
        this.session = session;
        this.process = process;
        this.exitStatusFile = exitStatusFile;
        this.jobId = jobId;
        this.site = site;
        this.following = following;
    }

    Session session() {
        return session;
    }

    Path exitStatusFile() {
        return exitStatusFile;
    }

    String jobId() {
        return jobId;
    }

    JobSite site() {
        return site;
    }

    /** The job's CPU, memory and tree on its node, from its wrapper's latest usage file; null before the first. */
    ResourceSampler.Usage usage() {
        return usage;
    }

    /**
     * Slurm's view of the job now ({@code seen} null: Slurm no longer knows it), and its folder's: the wrapper's
     * status file, which ends it once it is here with every byte of the output (a login host's are mirrored).
     */
    void observe(Seen seen, JobSite.Facts found) {
        SlurmJob job = seen == null ? null : seen.job();
        if (found == null) {
            return; // not in this look (followed after it began)
        }
        facts = found;
        if (!session.slurmCommandStarted() && !found.environmentLeft()) {
            session.slurmCommandStarted(true); // the wrapper read and deleted it as it started, on the node
        }
        if (job != null) {
            note(job);
        }
        readUsage(found);
        if (found.statusThere()) {
            long now = following.clock().millis();
            statusSeenAt = statusSeenAt < 0 ? now : statusSeenAt;
            if (Files.exists(exitStatusFile)
                    && (job == null || !seen.active() || now - statusSeenAt >= STATUS_TO_END.toMillis())) {
                endWithStatus(seen);
            }
            return;
        }
        if (job == null || !seen.active()) {
            if (++endedWithoutStatus >= POLLS_WITHOUT_STATUS) {
                endLost(job);
            }
        } else {
            endedWithoutStatus = 0;
        }
    }

    /** The wrapper's latest usage file, when it wrote a new one since the last look (its node's /proc, not ours). */
    private void readUsage(JobSite.Facts found) {
        long written = found.usageWrittenAt();
        if (written < 0 || found.usage() == null || written == usageWrittenAt) {
            return; // not written yet (the job waits, or its command has just started), or not since the last look
        }
        try {
            usageWrittenAt = written;
            UsageFile read = UsageFile.parse(found.usage());
            if (frames == null) {
                frames = new TreeUsageFrames(read.clockTicks(), read.pageSize());
            }
            frames.read(read.frame(), Map.of(UsageFile.ID, read.leader()));
            ResourceSampler.Usage u = frames.of(UsageFile.ID);
            usage = u == null ? null : new ResourceSampler.Usage(session.id(), u.cpuPercent(), u.rssBytes(), u.cpuSeconds(), u.tree());
        } catch (RuntimeException e) {
            log().log(Level.FINE, "unreadable usage file of " + session.id(), e);
        }
    }

    /** Keeps Slurm's facts with the session (its record and snapshot), an event when its state or reason changes. */
    private void note(SlurmJob job) {
        SlurmJob before = session.slurm();
        SlurmJob now = new SlurmJob(jobId, job.node() != null ? job.node() : before == null ? null : before.node(),
                job.partition(), job.state(), job.reason());
        if (session.slurm(now)) {
            if (before == null || !now.state().equals(before.state()) || !java.util.Objects.equals(now.reason(), before.reason())) {
                session.recordEvent(new dev.runboard.session.SessionEvent(following.clock().instant(),
                        dev.runboard.session.SessionEvent.SLURM, describe(now)));
            }
            following.changed(session);
        }
    }

    /**
     * The wrapper recorded how the command ended: its status wins, unless Slurm itself ended the job
     * (a node lost, a preemption) before the wrapper recorded anything. Slurm signals every process of
     * such a job at once, so the command's death by that signal is not its own end, whatever the
     * wrapper saw.
     */
    private void endWithStatus(Seen seen) {
        String status;
        try {
            status = Files.readString(exitStatusFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            status = "";
        }
        SlurmJob job = seen == null ? null : seen.job();
        String line = status.lines().findFirst().orElse("");
        if (job != null && LOST_BY_SLURM.contains(job.state()) && !recordedBefore(line, seen.endedAt())
                && session.requestedEnd() == null) {
            // Kept beside, not read as the end: the engine reads the status file, and this status is Slurm's doing.
            try {
                Files.move(exitStatusFile, exitStatusFile.resolveSibling(OVERRULED), StandardCopyOption.REPLACE_EXISTING);
                session.requestEnd(SessionStatus.UNKNOWN, slurmEnded(job) + "; its wrapper then saw the command end: " + line);
                following.ended(session);
                process.endedWithStatusLost();
                return;
            } catch (IOException e) {
                log().log(Level.WARNING, "could not set aside the exit status of " + session.id(), e);
            }
        }
        following.ended(session); // before the stand-in ends: an exec's JVM may exit as soon as it has
        process.ended(line);
    }

    /** Whether the wrapper named its command in the folder: the command ran (as the last poll found it). */
    private boolean ran() {
        return facts != null && facts.ran();
    }

    /** The job is over and its wrapper recorded nothing: Slurm's state says how it ended. */
    private void endLost(SlurmJob job) {
        if (job != null && job.state().startsWith("CANCELLED")) {
            session.requestEnd(SessionStatus.KILLED, ran() ? "cancelled in Slurm (scancel)" : SlurmJob.CANCELLED_BEFORE_START);
        } else {
            session.requestEnd(SessionStatus.UNKNOWN, job == null ? "Slurm no longer knows job " + jobId
                    + " and its wrapper recorded no exit status" : slurmEnded(job));
        }
        following.ended(session);
        process.endedWithStatusLost();
    }

    /** Whether the status line's time ("... at EPOCH_MS") is before Slurm's end of the job (to Slurm's second). */
    private static boolean recordedBefore(String line, java.time.Instant slurmEnded) {
        java.util.regex.Matcher at = java.util.regex.Pattern.compile(" at ([0-9]+)").matcher(line);
        return slurmEnded != null && at.find() && Long.parseLong(at.group(1)) < slurmEnded.toEpochMilli();
    }

    private String slurmEnded(SlurmJob job) {
        return "Slurm ended job " + jobId + ": " + job.state() + (job.reason() == null ? "" : " (" + job.reason() + ")")
                + (ran() ? "" : ", before its command started");
    }

    /** An event's words for the job's state. */
    static String describe(SlurmJob job) {
        String where = job.partition() == null ? "" : " in partition " + job.partition();
        return switch (job.state()) {
            case SlurmJob.PENDING -> "job " + job.jobId() + " pending" + where + (job.reason() == null ? "" : ": " + job.reason());
            case "RUNNING" -> "job " + job.jobId() + " running on " + job.node() + where;
            default -> "job " + job.jobId() + " " + job.state().toLowerCase(java.util.Locale.ROOT)
                    + (job.reason() == null ? "" : " (" + job.reason() + ")");
        };
    }
}
