package dev.runboard.slurm;

import dev.runboard.process.RemoteSessions;
import dev.runboard.process.ResourceSampler;
import dev.runboard.process.SessionWrapper;
import dev.runboard.remote.SshSessions;
import dev.runboard.slurm.SlurmQueue.Seen;
import dev.runboard.process.StandInProcess;
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
 * output and exit status go straight into the job's folder, which a cluster's nodes share with
 * the submit host: the session's own folder when runboard submits from here, its folder on the
 * login host ({@code --host}) otherwise, whose output and status are mirrored here as an ssh
 * session's are ({@link JobSite}). Slurm's own words fill in what the wrapper cannot
 * say: a job it holds is pending with its reason, and a job it ended before the wrapper could
 * record anything (cancelled, node failure, preemption) ends killed or unknown with Slurm's reason.
 *
 * <p>One poller asks {@code squeue} about every followed job of a site in one call (on a login host,
 * the same ssh call reads the jobs' folders). A supervisor that restarts follows its jobs again by
 * their ids (kept as the sessions' pids).
 */
public final class SlurmSessions implements RemoteSessions {
    /** Looked up only when something is logged. */
    private static Logger log() {
        return Logger.getLogger(SlurmSessions.class.getName());
    }

    static final Duration PERIOD = Duration.ofMillis(500);
    /** Beyond the grace, how long a kill waits for the wrapper's report: its sweep (3 s) and its own answer slack (5 s). */
    private static final long ANSWER_SLACK_MS = 8_000;

    private final Path dataDir;
    private final LocalSite local;
    private final Map<String, LoginSite> logins = new ConcurrentHashMap<>();
    private final Clock clock = Clock.systemUTC();
    private final Map<String, FollowedJob> followed = new ConcurrentHashMap<>();
    /** Sessions a kill is reading the folder of: their site keeps the folder until the kill is done ({@link #release}). */
    private final java.util.Set<String> killing = ConcurrentHashMap.newKeySet();
    private final List<Consumer<Session>> listeners = new CopyOnWriteArrayList<>();
    /** What the followed jobs tell these sessions: the clock, a change to show, a job's end. */
    private final FollowedJob.Following following = new FollowedJob.Following() {
        @Override
        public Clock clock() {
            return clock;
        }

        @Override
        public void changed(Session session) {
            listeners.forEach(l -> l.accept(session));
        }

        @Override
        public void ended(Session session) {
            followed.remove(session.id());
            release(session, false);
        }
    };
    private final Object wake = new Object();
    private volatile boolean closed;
    private SshSessions ssh;
    /** Whether {@link #ssh} is this one's own (made at the first login host), else its owner's, shared. */
    private boolean ownSsh;
    private Thread poller;

    /** @param dataDir where the session wrapper is installed (on the disk the nodes share), and whose ssh settings reach a login host */
    public SlurmSessions(Path dataDir) {
        this(dataDir, null);
    }

    /**
     * @param ssh the ssh layer the data dir's owner already runs for its ssh sessions, which login hosts then share
     *     (one poll, one output stream and one master per host, whatever runs there); it stays the owner's, which
     *     hears its changes and closes it. Null: one of this target's own, made at the first login host.
     */
    public SlurmSessions(Path dataDir, SshSessions ssh) {
        this.dataDir = dataDir;
        this.local = new LocalSite(dataDir);
        this.ssh = ssh;
    }

    /** Where a session's job is submitted: here, or on its {@code --host}, the cluster's login host. */
    private JobSite site(String host) {
        return host == null ? local : logins.computeIfAbsent(host, h -> new LoginSite(ssh().loginHost(h)));
    }

    private JobSite site(Session session) {
        return site(session.spec().host());
    }

    /** The ssh layer: the owner's, or one made at the first login host (whose changes are then this target's to tell). */
    private synchronized SshSessions ssh() {
        if (ssh == null) {
            try {
                ssh = SshSessions.forDataDir(dataDir);
            } catch (IOException e) {
                throw new InvalidSpecException("host", "login hosts cannot be reached: " + e.getMessage());
            }
            ownSsh = true;
            ssh.onChange(s -> listeners.forEach(l -> l.accept(s)));
        }
        return ssh;
    }

    @Override
    public void prepare(String host) {
        site(host).prepare();
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
            r = site(spec.host()).run(JobScript.testArguments(spec));
        } catch (SlurmCommand.ConfigurationMissing e) {
            throw new InvalidSpecException("slurm", e.getMessage() + " (or leave out --slurm)");
        } catch (IOException e) {
            throw new InvalidSpecException("slurm", "sbatch could not be run (" + e.getMessage() + "): install Slurm's"
                    + " client commands (sbatch on PATH), or leave out --slurm");
        }
        if (!r.ok()) {
            throw new InvalidSpecException("slurm", r.noConfiguration() ? r.said() + ", or leave out --slurm"
                    : "sbatch refused the job: " + r.said());
        }
    }

    @Override
    public Launched launch(Session session, Path exitStatusFile) throws IOException {
        return launch(session, exitStatusFile, null);
    }

    /**
     * Submits the session's job: its environment (the client's, the spec's, the session's tag) in a
     * 0600 file the wrapper reads and deletes, its script {@code exec}ing the wrapper, its output and
     * exit status into the job's folder, followed here from before the job exists.
     */
    @Override
    public Launched launch(Session session, Path exitStatusFile, Map<String, String> baseEnv) throws IOException {
        SessionSpec spec = session.spec();
        JobSite site = site(session);
        Map<String, String> env = new LinkedHashMap<>();
        // The job's own SLURM_* variables (its id, its node) are Slurm's to give, not the submitting shell's.
        site.baseEnvironment(baseEnv).forEach((k, v) -> {
            if (!k.startsWith("SLURM_") && !k.equals(SessionWrapper.ENVIRONMENT_VARIABLE)) {
                env.put(k, v);
            }
        });
        env.putAll(spec.env());
        String tag = session.tag();
        env.put(tag.substring(0, tag.indexOf('=')), tag.substring(tag.indexOf('=') + 1));
        site.prepareFolder(session);
        Path folder = site.folder(session);
        site.write(session, JobScript.ENVIRONMENT, SessionWrapper.environment(env, spec.cwd()));
        List<String> words = new ArrayList<>(site.wrapper(session, exitStatusFile, spec.timeout(), spec.grace().toMillis()));
        if (spec.nice() > 0) {
            words.addAll(List.of("nice", "-n", Integer.toString(spec.nice()))); // the command only, not its wrapper
        }
        words.addAll(spec.launchArgv());
        site.write(session, JobScript.SCRIPT, JobScript.text(session.id(), words, tag, folder.resolve(JobScript.ENVIRONMENT))
                .getBytes(StandardCharsets.UTF_8));
        site.follow(session, exitStatusFile);
        SlurmCommand.Result r;
        try {
            r = site.run(JobScript.sbatchArguments(session, site.output(session), folder.resolve(JobScript.SCRIPT)));
        } catch (IOException e) {
            r = new SlurmCommand.Result(-1, "", e.getMessage());
        }
        String jobId = r.out().strip().split(";")[0];
        if (!r.ok() || !jobId.matches("[0-9]+")) {
            site.delete(session, JobScript.ENVIRONMENT);
            site.done(session);
            throw new IOException("sbatch refused the job: " + r.said());
        }
        session.slurm(SlurmJob.submitted(jobId, null));
        return new Launched(follow(session, exitStatusFile, jobId, site), Long.parseLong(jobId), 0);
    }

    private StandInProcess follow(Session session, Path exitStatusFile, String jobId, JobSite site) {
        StandInProcess process = new StandInProcess(Long.parseLong(jobId), null);
        followed.put(session.id(), new FollowedJob(session, process, exitStatusFile, jobId, site, following));
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
        if (jobId == null) {
            return null;
        }
        JobSite site;
        try {
            site = site(session);
            site.follow(session, exitStatusFile);
        } catch (IOException | RuntimeException e) {
            log().log(Level.WARNING, "cannot follow Slurm job " + jobId + " of " + session.id() + " again", e);
            return null;
        }
        return follow(session, exitStatusFile, Long.toString(jobId), site);
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
        JobSite site = site(session);
        long requestedAt = clock.millis();
        killing.add(session.id());
        try {
            if (site.read(session, SessionStore.COMMAND) == null && isPending(site, jobId)) {
                scancel(site, List.of("scancel", jobId));
                return report(requestedAt, signal, grace, "job " + jobId + " was cancelled in Slurm before it started", reason);
            }
            site.delete(session, SessionStore.KILL_REPORT);
            askWrapper(site, session, SessionStore.KILL_REQUEST,
                    signal.name() + " " + grace.toMillis() + " " + why.word() + " " + requestedAt, jobId);
            long until = System.nanoTime() + Duration.ofMillis(grace.toMillis() + ANSWER_SLACK_MS).toNanos();
            // The report is a file read; whether the job is still there, a squeue call: asked every 20th look.
            String text = site.read(session, SessionStore.KILL_REPORT);
            for (int look = 1; text == null && System.nanoTime() < until && (look % 20 != 0 || isActive(site, jobId)); look++) {
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                text = site.read(session, SessionStore.KILL_REPORT);
            }
            scancel(site, List.of("scancel", jobId)); // whatever is left of the job (all of it, when the wrapper did not answer)
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
        } finally {
            release(session, true);
        }
    }

    /**
     * Tidies what the session's site keeps for it (a login host's folder) once the session has ended and no kill
     * reads its folder any more: whichever of the two comes last does it.
     */
    private void release(Session session, boolean killEnded) {
        JobSite site = site(session);
        synchronized (killing) {
            if (killEnded) {
                killing.remove(session.id());
            }
            if (killing.contains(session.id()) || followed.containsKey(session.id())) {
                return;
            }
        }
        site.done(session);
    }

    /**
     * Asks the job's wrapper on its node for a kill or a signal: the request's line, written whole into the job's
     * folder (private, temp file and rename: the wrapper never reads half of it), then Slurm wakes the wrapper with
     * USR1 on the job's batch step.
     */
    private void askWrapper(JobSite site, Session session, String request, String line, String jobId) throws IOException {
        site.write(session, request, (line + "\n").getBytes(StandardCharsets.UTF_8));
        scancel(site, List.of("scancel", "--batch", "--signal=USR1", jobId));
    }

    /** A kill that only Slurm did (scancel): said as the wrapper says its kills, so it is read by the one parser. */
    private WrapperReport report(long requestedAt, Signal signal, Duration grace, String note, String reason) {
        String text = "requested_at " + requestedAt + "\nsignal " + signal.name() + "\ngrace_ms " + grace.toMillis()
                + "\nterm_at " + clock.millis() + "\nnote " + note + "\ndone_at " + clock.millis() + "\n";
        return WrapperReport.parse(text, reason, 0, (pid, start) -> true);
    }

    private static void scancel(JobSite site, List<String> argv) throws IOException {
        SlurmCommand.Result r = site.run(argv);
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

    private static boolean isPending(JobSite site, String jobId) throws IOException {
        Seen seen = seen(site, jobId);
        return seen != null && seen.job().isPending();
    }

    private static boolean isActive(JobSite site, String jobId) throws IOException {
        Seen seen = seen(site, jobId);
        return seen != null && seen.active();
    }

    private static Seen seen(JobSite site, String jobId) throws IOException {
        return SlurmQueue.read(site.run(SlurmQueue.arguments(List.of(jobId))), site.squeueZone()).get(jobId);
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
        FollowedJob followedJob = followed.get(session.id());
        if (followedJob == null) {
            return false;
        }
        JobSite site = followedJob.site();
        String line = signal.name() + " " + clock.millis();
        try {
            if (site.read(session, SessionStore.COMMAND) == null || Files.exists(followedJob.exitStatusFile())) {
                return false; // Slurm still holds the job (nothing runs yet), or its command has ended
            }
            site.delete(session, SessionWrapper.SIGNAL_SERVED);
            askWrapper(site, session, SessionWrapper.SIGNAL_REQUEST, line, jobIdOf(session));
            long until = System.nanoTime() + SIGNAL_ANSWER.toNanos();
            for (long wait = 5; System.nanoTime() < until; wait = Math.min(wait * 2, 100)) {
                String served = site.read(session, SessionWrapper.SIGNAL_SERVED);
                if (served != null) {
                    return served.strip().equals(line + " sent");
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
        FollowedJob f = followed.get(session.id());
        return f == null ? null : f.usage();
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

    /** One look at every followed job, site by site: Slurm's state (one squeue call) and the job's folder. */
    void pollOnce() throws IOException {
        if (followed.isEmpty()) {
            return;
        }
        Map<JobSite, List<FollowedJob>> bySite = new java.util.IdentityHashMap<>();
        followed.values().forEach(f -> bySite.computeIfAbsent(f.site(), s -> new ArrayList<>()).add(f));
        IOException failed = null;
        for (Map.Entry<JobSite, List<FollowedJob>> e : bySite.entrySet()) {
            List<FollowedJob> batch = e.getValue();
            try {
                JobSite.Look look = e.getKey().look(SlurmQueue.arguments(batch.stream().map(FollowedJob::jobId).distinct().toList()),
                        batch.stream().map(f -> new JobSite.Job(f.session(), f.exitStatusFile())).toList());
                Map<String, Seen> jobs = SlurmQueue.read(look.squeue(), e.getKey().squeueZone());
                for (FollowedJob f : batch) {
                    f.observe(jobs.get(f.jobId()), look.facts().get(f.session().id()));
                }
            } catch (IOException ex) {
                failed = ex; // one unreachable login host does not hold up the others' jobs
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Stops following; the jobs go on in Slurm (the next runboard follows them again). */
    @Override
    public void close() {
        closed = true;
        synchronized (wake) {
            wake.notifyAll();
        }
        synchronized (this) {
            if (ssh != null && ownSsh) {
                ssh.close(); // the mirrors stop; the jobs and their folders stay for the next runboard
            }
        }
    }

}
