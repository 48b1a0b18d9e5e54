package dev.runboard.slurm;

import dev.runboard.process.RemoteSessions;
import dev.runboard.process.ResourceSampler;
import dev.runboard.process.SessionWrapper;
import dev.runboard.process.StandInProcess;
import dev.runboard.process.TreeUsageFrames;
import dev.runboard.process.WrapperReport;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.session.SlurmJob;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sessions that run as Slurm batch jobs (docs/CLUSTERS.md). The job is runboard's session wrapper,
 * so everything the wrapper guarantees holds on the node: it owns the command's tree, holds the
 * deadline (counted from the job's start), does the one kill and writes the exit status. Its
 * output and exit status go straight into the session's folder, which a cluster's nodes share
 * with the submit host, so nothing is copied. Slurm's own words fill in what the wrapper cannot
 * say: a job it holds is pending with its reason, and a job it ended before the wrapper could
 * record anything (cancelled, node failure, preemption) ends killed or unknown with Slurm's reason.
 *
 * <p>One poller asks {@code squeue} about every followed job in one call. A supervisor that
 * restarts follows its jobs again by their ids (kept as the sessions' pids).
 */
public final class SlurmSessions implements RemoteSessions {
    /** Looked up only when something is logged. */
    private static Logger log() {
        return Logger.getLogger(SlurmSessions.class.getName());
    }

    static final Duration PERIOD = Duration.ofMillis(500);
    /** How long a job may stay in Slurm's queue after its wrapper wrote the status (it exits right after, unless processes linger). */
    static final Duration STATUS_TO_END = Duration.ofSeconds(10);
    /** How many polls in a row must find a job ended without a status before it is lost (a shared disk may show the file late). */
    private static final int POLLS_WITHOUT_STATUS = 3;
    /** Beyond the grace, how long a kill waits for the wrapper's report: its sweep (3 s) and its own answer slack (5 s). */
    private static final long ANSWER_SLACK_MS = 8_000;
    /** Slurm's states of a job that is not over (squeue %T). */
    private static final java.util.Set<String> ACTIVE = java.util.Set.of("PENDING", "CONFIGURING", "RUNNING", "COMPLETING",
            "SUSPENDED", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED",
            "RESV_DEL_HOLD", "SPECIAL_EXIT");
    /** States in which Slurm, not the command, ended a job that ran: its wrapper's record of a kill is Slurm's doing. */
    private static final java.util.Set<String> LOST_BY_SLURM = java.util.Set.of("NODE_FAIL", "BOOT_FAIL", "PREEMPTED");
    /** Where a status the wrapper wrote after Slurm had ended the job is kept (it is not the command's own end). */
    static final String OVERRULED = "exit-status.after-slurm";

    private final Path dataDir;
    private final SlurmCommand slurm = new SlurmCommand();
    private final Clock clock = Clock.systemUTC();
    private final Map<String, Followed> followed = new ConcurrentHashMap<>();
    private final List<Consumer<Session>> listeners = new CopyOnWriteArrayList<>();
    private final Object wake = new Object();
    private volatile boolean closed;
    private volatile SessionWrapper wrapper;
    private Thread poller;

    /** @param dataDir where the session wrapper is installed (on the disk the nodes share) */
    public SlurmSessions(Path dataDir) {
        this.dataDir = dataDir;
    }

    @Override
    public void prepare(String host) {
        if (host != null) {
            throw new InvalidSpecException("host", "--slurm with --host (Slurm's commands on a login host) is not available"
                    + " yet: run runboard where sbatch is, or leave out --host");
        }
    }

    /**
     * Asks sbatch whether it would take the job ({@code --test-only}: nothing is submitted), so that
     * a missing sbatch, an unknown partition or any refusal is one line naming what Slurm said,
     * before the session's folder exists.
     */
    @Override
    public void prepare(SessionSpec spec) {
        prepare(spec.host());
        SlurmCommand.Result r;
        try {
            r = slurm.run(JobScript.testArguments(spec));
        } catch (IOException e) {
            throw new InvalidSpecException("slurm", "sbatch could not be run (" + e.getMessage() + "): install Slurm's"
                    + " client commands (sbatch on PATH), or leave out --slurm");
        }
        if (!r.ok()) {
            throw new InvalidSpecException("slurm", "sbatch refused the job: " + r.said());
        }
    }

    @Override
    public Launched launch(Session session, Path exitStatusFile) throws IOException {
        return launch(session, exitStatusFile, null);
    }

    /**
     * Submits the session's job: its environment (the client's, the spec's, the session's tag) in a
     * 0600 file the wrapper reads and deletes, its script {@code exec}ing the wrapper, its output and
     * exit status into the session's folder.
     */
    @Override
    public Launched launch(Session session, Path exitStatusFile, Map<String, String> baseEnv) throws IOException {
        SessionSpec spec = session.spec();
        Path folder = exitStatusFile.getParent();
        Map<String, String> env = new LinkedHashMap<>();
        // The job's own SLURM_* variables (its id, its node) are Slurm's to give, not the submitting shell's.
        (baseEnv != null ? baseEnv : System.getenv()).forEach((k, v) -> {
            if (!k.startsWith("SLURM_") && !k.equals(SessionWrapper.ENVIRONMENT_VARIABLE)) {
                env.put(k, v);
            }
        });
        env.putAll(spec.env());
        String tag = session.tag();
        env.put(tag.substring(0, tag.indexOf('=')), tag.substring(tag.indexOf('=') + 1));
        Path environment = folder.resolve(JobScript.ENVIRONMENT);
        SessionWrapper.writeEnvironment(environment, env, spec.cwd());
        List<String> words = new ArrayList<>(wrapper().jobPrefix(exitStatusFile, spec.timeout(), spec.grace().toMillis()));
        if (spec.nice() > 0) {
            words.addAll(List.of("nice", "-n", Integer.toString(spec.nice()))); // the command only, not its wrapper
        }
        words.addAll(spec.launchArgv());
        Path script = folder.resolve(JobScript.SCRIPT);
        dev.runboard.store.DataDirs.createPrivateFile(script);
        Files.writeString(script, JobScript.text(session.id(), words, tag, environment), StandardCharsets.UTF_8);
        SlurmCommand.Result r = slurm.run(JobScript.sbatchArguments(session, script));
        String jobId = r.out().strip().split(";")[0];
        if (!r.ok() || !jobId.matches("[0-9]+")) {
            Files.deleteIfExists(environment);
            throw new IOException("sbatch refused the job: " + r.said());
        }
        session.slurm(SlurmJob.submitted(jobId, null));
        return new Launched(follow(session, exitStatusFile, jobId), Long.parseLong(jobId), 0);
    }

    private SessionWrapper wrapper() throws IOException {
        SessionWrapper known = wrapper;
        if (known == null) {
            known = SessionWrapper.install(dataDir).orElseThrow(() -> new IOException("perl was not found on PATH:"
                    + " a Slurm job runs the command under runboard's session wrapper, a Perl script"));
            wrapper = known;
        }
        return known;
    }

    private StandInProcess follow(Session session, Path exitStatusFile, String jobId) {
        StandInProcess process = new StandInProcess(Long.parseLong(jobId), null);
        followed.put(session.id(), new Followed(session, process, exitStatusFile, jobId));
        startPoller();
        synchronized (wake) {
            wake.notifyAll();
        }
        return process;
    }

    /** A restarted supervisor follows the job again by its id (the session's pid): Slurm kept it, pending or running. */
    @Override
    public Process reattach(Session session, Path exitStatusFile) {
        Long jobId = session.pid();
        return jobId == null ? null : follow(session, exitStatusFile, Long.toString(jobId));
    }

    /**
     * The wrapper's kill, then {@code scancel}: the request goes into the session's folder (shared
     * with the node) and Slurm delivers USR1 to the job's batch step, which is the wrapper; its report
     * comes back through the folder. Then the job is cancelled, so that nothing of it stays in
     * Slurm's queue. A job Slurm still holds has nothing running: cancelling it is the whole kill.
     */
    @Override
    public WrapperReport kill(Session session, Signal signal, Duration grace, SessionStatus why, String reason) {
        String jobId = jobIdOf(session);
        Path folder = session.captureFile().getParent();
        long requestedAt = clock.millis();
        try {
            if (!Files.exists(folder.resolve(SessionStore.COMMAND)) && isPending(jobId)) {
                scancel(List.of("scancel", jobId));
                return report(requestedAt, signal, grace, "job " + jobId + " was cancelled in Slurm before it started", reason);
            }
            Path report = folder.resolve(SessionStore.KILL_REPORT);
            Files.deleteIfExists(report);
            askWrapper(folder.resolve(SessionStore.KILL_REQUEST),
                    signal.name() + " " + grace.toMillis() + " " + why.word() + " " + requestedAt, jobId);
            long until = System.nanoTime() + Duration.ofMillis(grace.toMillis() + ANSWER_SLACK_MS).toNanos();
            // The report is a file read; whether the job is still there, a squeue call: asked once a second.
            for (int look = 1; !Files.exists(report) && System.nanoTime() < until && (look % 20 != 0 || isActive(jobId)); look++) {
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            }
            String text = Files.exists(report) ? Files.readString(report, StandardCharsets.UTF_8) : null;
            scancel(List.of("scancel", jobId)); // whatever is left of the job (all of it, when the wrapper did not answer)
            if (text == null) {
                return report(requestedAt, signal, grace, "the wrapper of job " + jobId + " did not answer: Slurm ended the"
                        + " job (scancel)", reason);
            }
            WrapperReport parsed = WrapperReport.parse(text, reason, 0, (pid, start) -> true);
            if (parsed == null) {
                throw new IllegalStateException("Slurm job " + jobId + ": the wrapper's kill gave no report");
            }
            return parsed.withNote("in Slurm job " + jobId);
        } catch (IOException e) {
            throw new IllegalStateException("Slurm job " + jobId + ": " + e.getMessage() + "; the kill is not done", e);
        }
    }

    /**
     * Asks the job's wrapper on its node for a kill or a signal: the request's line, written whole into the session's
     * folder (private, temp file and rename: the wrapper never reads half of it), then Slurm wakes the wrapper with
     * USR1 on the job's batch step.
     */
    private void askWrapper(Path request, String line, String jobId) throws IOException {
        dev.runboard.store.AtomicFiles.SYSTEM.write(request, (line + "\n").getBytes(StandardCharsets.UTF_8));
        scancel(List.of("scancel", "--batch", "--signal=USR1", jobId));
    }

    /** A kill that only Slurm did (scancel): said as the wrapper says its kills, so it is read by the one parser. */
    private WrapperReport report(long requestedAt, Signal signal, Duration grace, String note, String reason) {
        String text = "requested_at " + requestedAt + "\nsignal " + signal.name() + "\ngrace_ms " + grace.toMillis()
                + "\nterm_at " + clock.millis() + "\nnote " + note + "\ndone_at " + clock.millis() + "\n";
        return WrapperReport.parse(text, reason, 0, (pid, start) -> true);
    }

    private void scancel(List<String> argv) throws IOException {
        SlurmCommand.Result r = slurm.run(argv);
        if (!r.ok() && !r.said().contains("already completed") && !r.said().contains("Invalid job id")) {
            throw new IOException("scancel refused: " + r.said());
        }
    }

    private static String jobIdOf(Session session) {
        SlurmJob job = session.slurm();
        if (job != null) {
            return job.jobId();
        }
        if (session.pid() == null) {
            throw new IllegalStateException("session " + session.id() + " has no Slurm job");
        }
        return Long.toString(session.pid());
    }

    private boolean isPending(String jobId) throws IOException {
        Seen seen = query(List.of(jobId)).get(jobId);
        return seen != null && seen.job().isPending();
    }

    private boolean isActive(String jobId) throws IOException {
        Seen seen = query(List.of(jobId)).get(jobId);
        return seen != null && ACTIVE.contains(seen.job().state());
    }

    /** A job as squeue shows it, with when Slurm ended it (an ended job's; null otherwise or when not said). */
    record Seen(SlurmJob job, java.time.Instant endedAt) {
    }

    /** Slurm's view of these jobs, by id: one squeue call; a job Slurm no longer knows is absent. */
    Map<String, Seen> query(List<String> jobIds) throws IOException {
        SlurmCommand.Result r = slurm.run(List.of("squeue", "-h", "-t", "all", "-j", String.join(",", jobIds),
                "-o", "%i|%T|%N|%P|%e|%r"));
        if (!r.ok() && !r.said().contains("Invalid job id")) {
            throw new IOException("squeue: " + r.said());
        }
        Map<String, Seen> jobs = new LinkedHashMap<>();
        for (String line : r.out().split("\n")) {
            String[] f = line.strip().split("\\|", 6);
            if (f.length == 6 && !f[0].isEmpty()) {
                SlurmJob job = new SlurmJob(f[0], f[2].isBlank() ? null : f[2], f[3].isBlank() ? null : f[3], f[1],
                        f[5].isBlank() || f[5].equals("None") ? null : f[5]);
                jobs.put(f[0], new Seen(job, ACTIVE.contains(f[1]) ? null : time(f[4])));
            }
        }
        return jobs;
    }

    /** squeue's time (this machine's local time, to the second), or null when it says none. */
    private static java.time.Instant time(String text) {
        try {
            return java.time.LocalDateTime.parse(text.strip()).atZone(java.time.ZoneId.systemDefault()).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** How long a signal request waits for the job's wrapper to answer (it is woken by Slurm's USR1 at once). */
    private static final Duration SIGNAL_ANSWER = Duration.ofSeconds(10);

    /**
     * Pause, resume or any signal that does not end the job, sent by its wrapper to the command's group as runboard
     * sends one to a local command's: Slurm's own suspend is an administrator's, and its {@code scancel --signal}
     * reaches the job's steps, not the command's group below the wrapper. The request goes into the session's folder
     * and Slurm wakes the wrapper with USR1; false when nothing runs (still pending, or ended) or no answer came.
     */
    @Override
    public boolean signal(Session session, Signal signal) {
        Followed followedJob = followed.get(session.id());
        if (followedJob == null) {
            return false;
        }
        Path folder = followedJob.exitStatusFile.getParent();
        if (!Files.exists(folder.resolve(SessionStore.COMMAND)) || Files.exists(followedJob.exitStatusFile)) {
            return false; // Slurm still holds the job (nothing runs yet), or its command has ended
        }
        String line = signal.name() + " " + clock.millis();
        try {
            Path served = folder.resolve(SessionWrapper.SIGNAL_SERVED);
            Files.deleteIfExists(served);
            askWrapper(folder.resolve(SessionWrapper.SIGNAL_REQUEST), line, jobIdOf(session));
            long until = System.nanoTime() + SIGNAL_ANSWER.toNanos();
            for (long wait = 5; System.nanoTime() < until; wait = Math.min(wait * 2, 100)) {
                if (Files.exists(served)) {
                    return Files.readString(served, StandardCharsets.UTF_8).strip().equals(line + " sent");
                }
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(wait).toNanos());
            }
            return false;
        } catch (IOException e) {
            log().log(Level.WARNING, "could not signal Slurm job " + jobIdOf(session), e);
            return false;
        }
    }

    /** The job's CPU, memory and process tree on its node, as its wrapper last wrote them; null before the first. */
    @Override
    public ResourceSampler.Usage usage(Session session) {
        Followed f = followed.get(session.id());
        return f == null ? null : f.usage;
    }

    @Override
    public void onChange(Consumer<Session> listener) {
        listeners.add(listener);
    }

    private synchronized void startPoller() {
        if (poller == null) {
            poller = new Thread(this::pollLoop, "runboard-slurm");
            poller.setDaemon(true);
            poller.start();
        }
    }

    private void pollLoop() {
        while (!closed) {
            try {
                pollOnce();
            } catch (IOException | RuntimeException e) {
                log().log(Level.FINE, "squeue failed; asking again", e);
            }
            synchronized (wake) {
                try {
                    wake.wait(PERIOD.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** One look at every followed job: Slurm's state (one squeue call) and the wrapper's status file. */
    void pollOnce() throws IOException {
        if (followed.isEmpty()) {
            return;
        }
        List<Followed> batch = new ArrayList<>(followed.values());
        Map<String, Seen> jobs = query(batch.stream().map(Followed::jobId).distinct().toList());
        for (Followed f : batch) {
            f.observe(jobs.get(f.jobId()));
        }
    }

    /** Stops following; the jobs go on in Slurm (the next runboard follows them again). */
    @Override
    public void close() {
        closed = true;
        synchronized (wake) {
            wake.notifyAll();
        }
    }

    /** A job being followed: its session, its stand-in process, where its wrapper writes the exit status. */
    private final class Followed {
        private final Session session;
        private final StandInProcess process;
        private final Path exitStatusFile;
        private final String jobId;
        private long statusSeenAt = -1;
        private int endedWithoutStatus;
        private TreeUsageFrames frames;
        private long usageWrittenAt;
        private volatile ResourceSampler.Usage usage;

        Followed(Session session, StandInProcess process, Path exitStatusFile, String jobId) {
            this.session = session;
            this.process = process;
            this.exitStatusFile = exitStatusFile;
            this.jobId = jobId;
        }

        String jobId() {
            return jobId;
        }

        /** Slurm's view of the job now ({@code seen} null: Slurm no longer knows it), and the wrapper's status file. */
        void observe(Seen seen) {
            SlurmJob job = seen == null ? null : seen.job();
            if (!session.slurmCommandStarted() && !Files.exists(exitStatusFile.resolveSibling(JobScript.ENVIRONMENT))) {
                session.slurmCommandStarted(true); // the wrapper read and deleted it as it started, on the node
            }
            if (job != null) {
                note(job);
            }
            readUsage();
            if (Files.exists(exitStatusFile)) {
                long now = clock.millis();
                statusSeenAt = statusSeenAt < 0 ? now : statusSeenAt;
                if (job == null || !ACTIVE.contains(job.state()) || now - statusSeenAt >= STATUS_TO_END.toMillis()) {
                    endWithStatus(seen);
                }
                return;
            }
            if (job == null || !ACTIVE.contains(job.state())) {
                if (++endedWithoutStatus >= POLLS_WITHOUT_STATUS) {
                    endLost(job);
                }
            } else {
                endedWithoutStatus = 0;
            }
        }

        /** The wrapper's latest usage file, when it wrote a new one since the last look (its node's /proc, not ours). */
        private void readUsage() {
            Path file = exitStatusFile.resolveSibling(SessionWrapper.USAGE_FILE);
            try {
                // Checked for what it is before it is opened (a FIFO put in its place would block this poller).
                java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(file,
                        java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                long written = a.lastModifiedTime().toMillis();
                if (!a.isRegularFile() || written == usageWrittenAt) {
                    return;
                }
                usageWrittenAt = written;
                UsageFile read = UsageFile.parse(Files.readString(file, StandardCharsets.UTF_8));
                if (frames == null) {
                    frames = new TreeUsageFrames(read.clockTicks(), read.pageSize());
                }
                frames.read(read.frame(), Map.of(UsageFile.ID, read.leader()));
                ResourceSampler.Usage u = frames.of(UsageFile.ID);
                usage = u == null ? null : new ResourceSampler.Usage(session.id(), u.cpuPercent(), u.rssBytes(), u.cpuSeconds(), u.tree());
            } catch (java.nio.file.NoSuchFileException e) {
                // not written yet (the job waits, or its command has just started)
            } catch (IOException | RuntimeException e) {
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
                    session.recordEvent(new dev.runboard.session.SessionEvent(clock.instant(),
                            dev.runboard.session.SessionEvent.SLURM, describe(now)));
                }
                listeners.forEach(l -> l.accept(session));
            }
        }

        /**
         * The wrapper recorded how the command ended: its status wins, unless Slurm itself ended the job
         * (a node lost, a preemption) before the wrapper recorded anything. Slurm signals every process of
         * such a job at once, so the command's death by that signal is not its own end, whatever the
         * wrapper saw.
         */
        private void endWithStatus(Seen seen) {
            followed.remove(session.id());
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
                    process.endedWithStatusLost();
                    return;
                } catch (IOException e) {
                    log().log(Level.WARNING, "could not set aside the exit status of " + session.id(), e);
                }
            }
            process.ended(line);
        }

        /** The job is over and its wrapper recorded nothing: Slurm's state says how it ended. */
        private void endLost(SlurmJob job) {
            followed.remove(session.id());
            boolean ran = Files.exists(exitStatusFile.resolveSibling(SessionStore.COMMAND));
            if (job != null && job.state().startsWith("CANCELLED")) {
                session.requestEnd(SessionStatus.KILLED, ran ? "cancelled in Slurm (scancel)" : SlurmJob.CANCELLED_BEFORE_START);
            } else {
                session.requestEnd(SessionStatus.UNKNOWN, job == null ? "Slurm no longer knows job " + jobId
                        + " and its wrapper recorded no exit status" : slurmEnded(job));
            }
            process.endedWithStatusLost();
        }

        /** Whether the status line's time ("... at EPOCH_MS") is before Slurm's end of the job (to Slurm's second). */
        private static boolean recordedBefore(String line, java.time.Instant slurmEnded) {
            java.util.regex.Matcher at = java.util.regex.Pattern.compile(" at ([0-9]+)").matcher(line);
            return slurmEnded != null && at.find() && Long.parseLong(at.group(1)) < slurmEnded.toEpochMilli();
        }

        private String slurmEnded(SlurmJob job) {
            return "Slurm ended job " + jobId + ": " + job.state() + (job.reason() == null ? "" : " (" + job.reason() + ")")
                    + (Files.exists(exitStatusFile.resolveSibling(SessionStore.COMMAND)) ? "" : ", before its command started");
        }
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
