package dev.runboard.process;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.KillReport;
import dev.runboard.session.ResourceTotals;
import dev.runboard.session.Session;
import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.store.SessionLock;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Launches sessions and sees them to their end: the child writes straight into its capture file
 * (no pipe through the JVM), exit is detected by {@code Process.onExit()}, deadlines are enforced
 * here, and a kill ends the whole tree. Every session is recorded in the store as it starts and
 * ends, and runs under a wrapper that records its exit status, so a later engine can take over
 * sessions whose runboard died ({@link #loadHistory()}). Headless: the CLI and the window both drive this.
 */
public final class SessionEngine extends SessionsById {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(SessionEngine.class.getName());
    }

    /** How long after the deadline and the grace the engine steps in for a wrapper that did not. */
    static final Duration DEADLINE_BACKSTOP = Duration.ofSeconds(3);

    private final SessionStore store;
    private final SessionLauncher launcher;
    private final PtyLauncher ptyLauncher;
    private final SessionFinisher finisher;
    private final SessionMonitor monitor;
    private final SessionSignals signals;
    private final ExecutorService workers = Executors.newCachedThreadPool(daemonThreads("runboard-worker"));
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(daemonThreads("runboard-timer"));
    private final ManagedSessions managed = new ManagedSessions();
    private final List<Consumer<String>> warningListeners = new CopyOnWriteArrayList<>();
    private final List<java.util.function.BiConsumer<Session, dev.runboard.session.SessionEvent>> eventListeners =
            new CopyOnWriteArrayList<>();
    private final List<Consumer<Session>> decidedListeners = new CopyOnWriteArrayList<>();
    private final HistoryReconciler history;
    private final SessionKills kills;
    private final SessionRecorder recorder;
    private final TimeIndexSampler times;
    private final WaitingSessions waiting = new WaitingSessions(this);
    private final LingeringWatch lingering;
    private final WrapperWatch wrappers;
    private volatile TreeKill treeKill;
    /** Sessions whose end is being recorded: an end noticed twice (exit, adoption poll, store watcher) is finished once. */
    private final java.util.Set<String> ending = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /**
     * Whether this engine owns the data dir's history (the supervisor): only then does it prune by
     * retention. {@code exec} owns just its own session and never deletes others.
     */
    private volatile boolean ownsHistory;
    /** Where sessions with a host or a Slurm target run; none until the owner plugs them in ({@link #useRemote}, {@link #useSlurm}). */
    private final SessionTargets remote = new SessionTargets();
    /** The limits, asked at each prune: the supervisor reads them from the settings, so a change applies without a restart. */
    private volatile java.util.function.Supplier<EngineConfig.Retention> retention;
    private volatile java.util.function.Supplier<Long> defaultMaxOutput = () -> null;
    /** Which environment names are secrets, asked as each session is made (the supervisor reads the settings). */
    private volatile java.util.function.Supplier<dev.runboard.session.SecretEnv> secrets = () -> dev.runboard.session.SecretEnv.DEFAULT;

    public SessionEngine(EngineConfig config) {
        super(config);
        this.store = config.store();
        java.util.function.Consumer<String> warnings = this::warn;
        this.launcher = new SessionLauncher(config.os(), config.dataDir(), warnings);
        this.ptyLauncher = new PtyLauncher(config.os(), launcher, warnings);
        this.kills = new SessionKills(this);
        this.lingering = new LingeringWatch(config.os(), timers, this::warn);
        // A wrapper that died while its command runs: the deadline is this engine's now, to the millisecond.
        this.wrappers = new WrapperWatch(store, config.os(), config.clock(), s -> {
            managed.replaceDeadline(s, scheduleDeadline(s, Duration.ZERO));
            saveLater(s);
        });
        this.retention = config::retention;
        this.monitor = new SessionMonitor(config.clock(),
                (s, why, reason) -> kills.end(s, Signal.TERM, s.spec().grace(), why, reason), SessionMonitor.DEFAULT_PERIOD,
                this::commandGroup);
        this.signals = new SessionSignals(config.os(), monitor, () -> remote, this::commandGroup);
        this.finisher = new SessionFinisher(config.artifacts(), store, config.clock());
        this.history = new HistoryReconciler(this);
        this.recorder = new SessionRecorder(store, warnings);
        this.times = new TimeIndexSampler(config.clock());
        // What the watchdog, the guards and the rules find stays with the session, in its record.
        monitor.onEvent((session, e) -> {
            dev.runboard.session.SessionEvent event = EngineEvents.of(e);
            session.recordEvent(event);
            saveLater(session);
            // A listener's failure must not cost the monitor's pass (the rule's or the watchdog's own action).
            eventListeners.forEach(l -> {
                try {
                    l.accept(session, event);
                } catch (RuntimeException failure) {
                    warn("an event listener failed for " + session.id() + ": " + failure);
                }
            });
        });
    }

    public static SessionEngine forDataDir(Path dataDir) {
        return new SessionEngine(EngineConfig.forDataDir(dataDir));
    }

    /** Told of each event the watchdog, the guards and the output rules find, as it is found (exec prints them). */
    public void onEvent(java.util.function.BiConsumer<Session, dev.runboard.session.SessionEvent> listener) {
        eventListeners.add(listener);
    }

    /**
     * Told of each session whose end is decided, on the thread that then writes its final record: its
     * {@link Session#snapshot()} is final, but the record is not on disk yet (the session's listeners
     * hear of the end only after it is). {@code exec} builds and prints the snapshot meanwhile, on its
     * own thread, and still waits for the listeners before it exits (docs/BENCHMARKS.md §10).
     */
    public void onEndDecided(Consumer<Session> listener) {
        decidedListeners.add(listener);
    }

    /**
     * Installs the session wrapper now (a warning says so when it cannot be), which the first launch
     * would otherwise do: for an owner that launches on request, before the first request.
     */
    public void prepareLaunches() {
        launcher.wrapsCommands();
    }

    /** Told of problems a person should see: unreadable records, a store that cannot be written. */
    public void onWarning(Consumer<String> listener) {
        warningListeners.add(listener);
    }

    /** Lets sessions run on other hosts through {@code remote}; call before {@link #loadHistory()}, which re-attaches them. */
    public void useRemote(RemoteSessions ssh) {
        remote.useSsh(ssh);
        ssh.onChange(this::saveLater);
        monitor.sampleRemoteWith(remote::usage);
    }

    /** Lets sessions run as Slurm jobs through {@code slurm}; call before {@link #loadHistory()}, which re-attaches them. */
    public void useSlurm(RemoteSessions slurm) {
        remote.useSlurm(slurm);
        slurm.onChange(this::saveLater);
        monitor.sampleRemoteWith(remote::usage);
    }

    RemoteSessions remote() {
        return remote;
    }

    void warn(String message) {
        log().warning(message);
        warningListeners.forEach(l -> l.accept(message));
    }

    void add(Session session) {
        sessions.add(session);
    }

    boolean knows(String id) {
        return sessions.knows(id);
    }

    /**
     * Validates and starts a session. An invalid spec throws before anything runs; a spec that
     * passes but cannot be started (the OS refused) returns a session already {@code failed} with the reason.
     */
    public Session start(SessionSpec spec) throws InvalidSpecException {
        return start(spec, null);
    }

    /**
     * As {@link #start(SessionSpec)}, the command starting from {@code baseEnv} (the environment of
     * the client that asked, so a command started through the supervisor sees the caller's PATH and
     * variables) instead of this process's; the spec's own variables go on top.
     */
    public Session start(SessionSpec spec, java.util.Map<String, String> baseEnv) throws InvalidSpecException {
        return start(spec, baseEnv, false);
    }

    /**
     * As {@link #start(SessionSpec)}, the command reading this process's own stdin (what
     * {@code exec} does, as {@code timeout(1)} and {@code env(1)} do): piped input reaches it, and it
     * sees end-of-file when the input ends. A PTY session's terminal is fed from it by a copier (its
     * end closes the terminal's input too). A Slurm job reads no input (a batch job has none); a
     * remote command's exec is the supervisor's (cli/SupervisedExec), which copies the input itself.
     */
    public Session startAttached(SessionSpec spec) throws InvalidSpecException {
        Session session = start(spec, null, true);
        if (spec.pty() && !session.status().isTerminal()) {
            StdinCopier.start(System.in, stdin(session), session.id());
        }
        return session;
    }

    private Session start(SessionSpec given, java.util.Map<String, String> baseEnv, boolean attachStdin) {
        SessionSpec spec = withDefaults(marked(given).validate());
        if (spec.isRemote()) {
            remote.prepare(spec); // an unreachable host, or a job Slurm would refuse, is refused before anything is created
        }
        Folder folder = createFolder(spec);
        Session session = new Session(folder.id(), spec, folder.capture(), config.clock());
        return launch(session, folder.lock(), baseEnv, attachStdin);
    }

    /**
     * The spec with what the owner's settings add to a spec that leaves it out: {@code default_max_output}
     * for a local session (the supervisor reads it from the settings at each start; {@code exec} has none).
     */
    SessionSpec withDefaults(SessionSpec spec) {
        Long bound = defaultMaxOutput.get();
        if (spec.maxOutputBytes() != null || bound == null || spec.isRemote()) {
            return spec;
        }
        return spec.toBuilder().maxOutputBytes(bound).build();
    }

    /** Where {@code default_max_output} comes from at each start (none, unless set). */
    public void defaultMaxOutputFrom(java.util.function.Supplier<Long> source) {
        this.defaultMaxOutput = source;
    }

    /** A new session's id, its folder (record space, capture) and the lock that makes this engine its owner. */
    record Folder(String id, Path capture, SessionLock lock) {
    }

    Folder createFolder(SessionSpec spec) {
        String id = SessionIds.next(config.clock());
        sessions.reserve(id);
        try {
            Path capture = store.create(id, spec); // private folder and files, room for the final record: before anything runs
            return new Folder(id, capture, SessionLock.tryAcquire(store.file(id, SessionStore.LOCK)).orElseThrow());
        } catch (IOException | java.util.NoSuchElementException e) {
            sessions.release(id);
            throw new InvalidSpecException("data", "cannot create the session's folder under " + store.sessionsDir()
                    + ": " + e.getMessage() + ". Check that the data dir is writable and the disk is not full.");
        }
    }

    /** Launches a session made by {@link #createFolder} (new, or one that waited: see {@link WaitingSessions}). */
    Session launch(Session session, SessionLock lock, java.util.Map<String, String> baseEnv, boolean attachStdin) {
        SessionSpec spec = session.spec();
        String id = session.id();
        Path capture = session.captureFile();
        Process process;
        long startTicks;
        // The start the user sees and the wrapper's deadline count from the same moment, taken before the launch.
        java.time.Instant launchedAt = config.clock().instant();
        try {
            Path exitStatus = store.file(id, SessionStore.EXIT_STATUS);
            if (spec.isRemote()) {
                RemoteSessions.Launched launched = remote.launch(session, exitStatus, baseEnv);
                process = launched.process();
                times.watch(id, capture);
                startTicks = launched.startTicks();
            } else {
                process = spec.pty() ? ptyLauncher.launch(spec, baseEnv, session.tag(), capture, exitStatus)
                        : launcher.launch(spec, baseEnv, attachStdin, session.tag(), capture, exitStatus);
                // Right after the launch, not before it (its start was on the way to the command's first
                // instruction): what the command wrote meanwhile, a few ms, is timed by this first sample,
                // well within the index's resolution.
                times.watch(id, capture);
                startTicks = config.os().startTicks(process.pid());
            }
        } catch (IOException e) {
            times.drop(id, capture);
            session.end(finisher.couldNotStart(session, e));
            recorder.save(session);
            lock.close();
            session.announce();
            addOnce(session);
            return session;
        }
        return running(session, process, startTicks, launchedAt, lock);
    }

    /** A launched session from here on: started, managed, its first record written, its end awaited. */
    private Session running(Session session, Process process, long startTicks, java.time.Instant launchedAt,
                            SessionLock lock) {
        if (!session.spec().isRemote()) {
            SessionLauncher.awaitCommand(process, store.file(session.id(), SessionStore.COMMAND));
        }
        session.started(process.pid(), startTicks, launchedAt);
        manage(session, process, lock, session.spec().timeout());
        save(session);
        process.onExit().thenAcceptAsync(p -> onExit(session, exitOf(p)), workers);
        addOnce(session);
        return session;
    }

    /**
     * Takes over the command bin/runboard launched before this JVM started ({@link EarlyLaunch}) as
     * the session {@code spec} describes, reading this process's stdin as {@link #startAttached}'s
     * does. Its first record, written here, is what tells the wrapper it is owned. Throws when the
     * spec is not one bin/runboard launches early or the folder cannot be completed; the wrapper then
     * ends the command once this JVM exits without that record.
     */
    public Session adoptEarly(SessionSpec spec, EarlyLaunch early) throws InvalidSpecException {
        return adoptEarly(spec, early, null);
    }

    /**
     * As {@link #adoptEarly(SessionSpec, EarlyLaunch)}, for a supervisor taking over the command an
     * exec client's bin/runboard launched: the wrapper is that client's child, not this JVM's, and
     * the client completes {@code exitReported} once it has waited for it (else its end is polled).
     * Null when the wrapper is this JVM's own child.
     */
    public Session adoptEarly(SessionSpec given, EarlyLaunch early, CompletableFuture<?> exitReported)
            throws InvalidSpecException {
        SessionSpec spec = marked(given);
        spec.validate();
        if (spec.pty() || spec.isRemote()) {
            // bin/runboard launches neither early: a runboard whose script and jar disagree
            throw new InvalidSpecException("command", "this exec asks for a terminal or another host, but bin/runboard"
                    + " launched its command here without either: it is stopped; run exec again");
        }
        ProcessHandle wrapper = early.wrapper();
        String id = early.id();
        sessions.reserve(id);
        Path capture;
        SessionLock lock;
        try {
            capture = store.completeEarly(id, spec);
            lock = SessionLock.tryAcquire(store.file(id, SessionStore.LOCK)).orElseThrow();
        } catch (IOException | java.util.NoSuchElementException e) {
            sessions.release(id);
            String why = "cannot complete the session's folder under " + store.sessionsDir() + ": " + e.getMessage();
            // The command ran: the wrapper stops it once this JVM has gone, and the supervisor records it (UnrecordedLaunch),
            // with this reason when there is room to leave it.
            try {
                java.nio.file.Files.writeString(store.file(id, UnrecordedLaunch.REFUSED), why);
            } catch (IOException | RuntimeException full) {
                // the record says its client ended before recording it
            }
            throw new InvalidSpecException("data", why + ". Check that the data dir is writable and the disk is not full;"
                    + " the command, started before this check, is stopped");
        }
        Session session = new Session(id, spec, capture, config.clock());
        Process process = new AdoptedChild(wrapper, exitReported);
        return running(session, process, config.os().startTicks(wrapper.pid()), early.launchedAt(), lock);
    }

    private void addOnce(Session session) {
        if (find(session.id()).isEmpty()) {
            add(session);
        }
    }

    /** Sessions that wait before they start (issue #17): made, launched and ended without running by this. */
    public WaitingSessions waiting() {
        return waiting;
    }

    /** Starts managing a running session: its deadline (from its original start) and its live tail. */
    void manage(Session session, Process process, SessionLock lock, Duration timeout) {
        CaptureTail tail = new CaptureTail(session.captureFile(), session.spec().previewBytes());
        session.watchOutput(tail);
        ScheduledFuture<?> deadline = null;
        if (timeout != null && !session.spec().isSlurm()) {
            // The wrapper holds the deadline itself (it outlives every runboard): this timer is its
            // backstop, for a wrapper that was killed, and the deadline itself only when unwrapped.
            // A Slurm job's deadline counts from the job's start, which only its wrapper sees: its
            // backstop is Slurm's own time limit (sbatch --time, at least the timeout and the grace).
            deadline = scheduleDeadline(session, session.spec().grace().plus(DEADLINE_BACKSTOP));
        }
        managed.put(session, new ManagedSessions.Managed(process, tail, deadline, lock));
        monitor.watch(session);
        times.watch(session.id(), session.captureFile());
        history.watchEnds();
    }

    /** The deadline kill, {@code after} the deadline itself (the wrapper's backstop), or null without a timeout. */
    private ScheduledFuture<?> scheduleDeadline(Session session, Duration after) {
        Duration timeout = session.spec().timeout();
        if (timeout == null) {
            return null;
        }
        long left = timeout.minus(session.elapsed()).plus(after).toMillis();
        return timers.schedule(() -> kills.end(session, Signal.TERM, session.spec().grace(), SessionStatus.TIMEOUT),
                Math.max(0, left), TimeUnit.MILLISECONDS);
    }

    /** The kill every local path takes (the session wrapper's, docs/PROCESS-TREE.md); one, with its kill server. */
    synchronized TreeKill treeKill() {
        TreeKill known = treeKill;
        if (known == null) {
            SessionWrapper wrapper = launcher.wrapper().orElseThrow(() -> new IllegalStateException(SessionLauncher.NO_PERL));
            known = new TreeKill(wrapper, store, config.os());
            treeKill = known;
        }
        return known;
    }

    /** What the monitor's last pass saw of the session, pid to start time: a kill without its wrapper still finds these. */
    Map<Long, Long> held(Session session) {
        ResourceSampler.Pass pass = monitor.lastPass();
        Map<Long, Long> seen = pass == null ? null : pass.held().get(session.id());
        return seen == null ? Map.of() : seen;
    }

    /** Ended sessions whose wrapper still holds processes the command left behind. */
    LingeringWatch lingering() {
        return lingering;
    }

    /** The process group of the session's command (its own, below the wrapper); the wrapper's for an older wrapper. */
    long commandGroup(Session session) {
        return wrappers.commandGroup(session);
    }

    /** Whether a running local session's end is due ({@link WrapperWatch#endIsDue}); asked every 100 ms of each. */
    boolean endIsDue(Session session, boolean adopted) {
        return wrappers.endIsDue(session, adopted);
    }

    /** Running local sessions this engine manages, with whether each was adopted (not our child). */
    Map<Session, Boolean> managedLocal() {
        Map<Session, Boolean> out = new java.util.LinkedHashMap<>();
        for (Session s : sessions()) {
            if (!s.status().isTerminal() && !s.spec().isRemote() && s.pid() != null && managed.contains(s)) {
                out.put(s, managed.isAdopted(s));
            }
        }
        return out;
    }

    /** Kills the session's whole tree: {@code signal} once, then SIGKILL after {@code grace}, then a sweep by tag. */
    public CompletableFuture<KillReport> kill(Session session, Signal signal, Duration grace) {
        return kills.end(session, signal, grace, SessionStatus.KILLED);
    }

    /** Ends the session's tree (TERM, KILL after its grace) recorded as {@code why} with the reason: an unhealthy one, say. */
    void endAs(Session session, Signal signal, SessionStatus why, String reason) {
        kills.end(session, signal, session.spec().grace(), why, reason);
    }

    /**
     * Kills every running session (CLI shutdown, tests) and waits until each has ended, its record
     * written: when this returns, nothing of these sessions runs or is still being saved.
     */
    public void killAll(Duration grace) {
        kills.killAll(grace);
    }

    /** Sends one signal to the session's process group without ending it (pause, resume, reload). */
    public boolean signal(Session session, Signal signal) {
        return signals.toGroup(session, signal);
    }

    /**
     * Sends a signal to one process of the session, or to it and everything below it in the
     * session's tree. Refuses pids that are not the session's (from a fresh pass over /proc).
     * Returns the pids signalled.
     */
    public List<Long> signalProcess(Session session, long pid, Signal signal, boolean subtree) {
        return signals.toProcess(session, pid, signal, subtree);
    }

    /**
     * CPU, memory, process tree and watchdog findings for a session, from the monitor's last pass
     * (once a second while it runs); kept after the end. Null for a session this engine never watched.
     */
    public SessionInsight insight(Session session) {
        return monitor.insight(session.id());
    }

    /** The last pass of the resource sampler shared by all sessions, or null before the first. */
    public ResourceSampler.Pass lastSamplerPass() {
        return monitor.lastPass();
    }

    /** The running session's stdin, a pipe kept open for input; null once it has ended or when it is not our child. */
    public OutputStream stdin(Session session) {
        return managed.stdin(session);
    }

    /** Whether this engine manages the session (others see it read-only, though they can kill it). */
    public boolean managesHere(Session session) {
        return managed.contains(session);
    }

    /** How the JDK saw the process end; nothing when it is a remote stand-in whose host lost the status. */
    private static Optional<ExitStatus> exitOf(Process p) {
        if (p instanceof RemoteSessions.StandIn s && s.exitStatusLost()) {
            return Optional.empty();
        }
        return Optional.of(ExitStatus.fromJdk(p.exitValue()));
    }

    void onExit(Session session, Optional<ExitStatus> fromJdk) {
        if (session.status().isTerminal() || !ending.add(session.id())) {
            return; // already ended, or being ended by whoever noticed first
        }
        if (wrappers.stillRunning(session)) {
            ending.remove(session.id()); // still running: its command's end comes later
            return;
        }
        try {
            monitor.exited(session); // a FAIL rule matching the last lines still fails the session
            SessionInsight last = monitor.insight(session.id());
            if (last != null && last.sampledAt() != null) {
                session.recordResources(new ResourceTotals(last.peakRssBytes(), last.cpuSeconds()));
            }
        } catch (RuntimeException e) {
            log().log(Level.WARNING, "last monitor pass failed for " + session.id(), e);
        }
        CompletableFuture<KillReport> kill = kills.inFlight(session);
        if (kill != null) {
            // The final snapshot carries the kill report, so wait for the sweep to finish.
            kill.handle((r, e) -> null).thenRunAsync(() -> finish(session, fromJdk), workers);
        } else {
            finish(session, fromJdk);
        }
    }

    private void finish(Session session, Optional<ExitStatus> fromJdk) {
        SessionLock lock = managed.release(session);
        times.finish(session.id()); // its last entry before the capture moves (the index moves with it)
        SessionOutcome outcome;
        try {
            // The wrapper's record tells a signal death from an exit code; the JDK's value cannot.
            Path statusFile = store.file(session.id(), SessionStore.EXIT_STATUS);
            // Plain Optional calls, no lambdas: this runs just after the command ended, in an exec's JVM with
            // each lambda's first link ~0.4 ms on the way to the snapshot (docs/BENCHMARKS.md §10, round 14).
            // Read once, as bytes: the kill facts below the status line may name processes in any bytes (a
            // strict UTF-8 read lost the whole report to one such name), and the line and the report are one file.
            String written = statusText(statusFile);
            Optional<ExitStatus> read = written == null ? Optional.empty() : ExitStatus.parse(written);
            // A local session's status is its wrapper's alone: without one, the wrapper died and the status is lost
            // (the JDK's value would be the wrapper's death, 137, not the command's end).
            Optional<ExitStatus> status = read.isPresent() || !session.spec().isRemote() ? read : fromJdk;
            if (status.isPresent() && status.get().timedOut() && !killedSomething(session.killReport())) {
                // The wrapper held the deadline and killed the tree: its report, below the status line, is this session's.
                // It also wins over a later kill that found nothing left (an adopting supervisor's own deadline
                // firing after the wrapper's had ended the command): that sweep is not how the session ended.
                // A remote wrapper's processes are its host's: this machine's /proc cannot say which still live.
                WrapperReport report = WrapperReport.parse(written, SessionKills.timeoutReason(session),
                        session.spec().isRemote() ? session.pid() : commandGroup(session),
                        session.spec().isRemote() ? (pid, start) -> true : config.os()::isAlive);
                if (report != null) {
                    session.recordKill(report.report());
                }
            }
            outcome = SessionFinisher.withHostDisk(session, finisher.exited(session, status, wrappers.unknownReason(session)),
                    written);
        } catch (RuntimeException e) {
            // Never leave a session "running" forever because finishing it failed: say so instead.
            outcome = finisher.internalError(session, fromJdk.map(ExitStatus::exitCode).orElse(-1), e);
        }
        lingering.watch(session); // before the end, so that its snapshot already lists what the command left behind
        // One value: the session ends, its record is written from that very state, and only then
        // are listeners told (whoever is told may read the record, or delete the folder).
        session.end(outcome);
        for (Consumer<Session> l : decidedListeners) {
            try {
                l.accept(session);
            } catch (RuntimeException failure) {
                warn("a listener failed for the end of " + session.id() + ": " + failure);
            }
        }
        if (recorder.save(session)) {
            finisher.tidy(session); // else the exit status stays for the next runboard to record
        }
        session.announce();
        if (lock != null) {
            lock.close();
        }
        ending.remove(session.id());
        try {
            workers.execute(this::applyRetention);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // the engine is closing: the next one applies retention when it loads the history
        }
    }

    /**
     * Takes over a remote session whose owner is gone: it is followed on its host again, from the
     * last byte its mirror holds. Its end is found there, so it needs no local liveness check. The
     * host's first answer is awaited (briefly): a command that ended meanwhile is finished here, before
     * anyone is told about the history, as a local one found ended is, so the first {@code show} after
     * the adoption says how it ended, not {@code running}.
     */
    void reattach(Session session, SessionLock lock) {
        Process process = remote.reattach(session, store.file(session.id(), SessionStore.EXIT_STATUS));
        if (process == null) {
            lock.close();
            warn("session " + session.id() + " runs on " + session.spec().host() + ", which this runboard does not reach");
            return;
        }
        if (process instanceof RemoteSessions.StandIn standIn) {
            // One wait for all the sessions re-attached together (an unreachable host answers none of them).
            long until = firstLookUntil.updateAndGet(u -> u != 0 ? u : System.nanoTime() + FIRST_LOOK.toNanos());
            standIn.awaitFirstLook(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
        }
        boolean ended = process.onExit().isDone();
        manage(session, process, lock, ended ? null : session.spec().timeout());
        adopted(session);
        if (ended) {
            onExit(session, exitOf(process));
        } else {
            process.onExit().thenAcceptAsync(p -> onExit(session, exitOf(p)), workers);
        }
    }

    /** How long re-attaching waits for the hosts' first answers (an unreachable host is then followed as it comes back). */
    private static final Duration FIRST_LOOK = Duration.ofSeconds(5);
    /** When the re-attaches' wait for first answers ends (System.nanoTime; 0 before the first re-attach). */
    private final java.util.concurrent.atomic.AtomicLong firstLookUntil = new java.util.concurrent.atomic.AtomicLong();

    /** Whether a kill report says a process was signalled (not a sweep that found the tree already gone). */
    private static boolean killedSomething(dev.runboard.session.KillReport k) {
        return k != null && !(k.signalled().isEmpty() && k.killedAfterGrace().isEmpty() && k.sweptByTag().isEmpty());
    }

    /** A running session whose owner died is this engine's now: its events say so (see {@link EngineEvents#adoption}). */
    void adopted(Session session) {
        EngineEvents.adoption(session.pid(), config.clock().instant()).forEach(session::recordEvent);
        save(session);
    }

    /** The wrapper's status file as text (bytes that are not UTF-8 replaced, never refused), or null when there is none. */
    private static String statusText(Path file) {
        try {
            return new String(java.nio.file.Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }

    private void saveLater(Session session) {
        try {
            workers.execute(() -> save(session));
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // the engine is closing; the session's next record carries the event
        }
    }

    /** Whether the session's end is being recorded (its command has exited). */
    boolean isEnding(Session session) {
        return ending.contains(session.id());
    }

    /** Writes the session's record as it is now (a kill report, say); never after its terminal record. */
    void save(Session session) {
        recorder.save(session);
    }

    /** Loads past sessions, finalises those that ended while no runboard ran, and adopts those still running. */
    public List<String> loadHistory() {
        return loadHistory(true);
    }

    /** As {@link #loadHistory()}; with {@code adopt} false, running sessions nobody manages are left to the next window. */
    public List<String> loadHistory(boolean adopt) {
        ownsHistory = adopt;
        history.adopt(adopt);
        List<String> warnings = history.load();
        warnings.forEach(this::warn);
        // No pruning here: a read (a `list` that had to start a supervisor) never deletes. Retention runs at
        // a session's end, by the settings as they are then.
        return warnings;
    }

    /** Watches the store for sessions started elsewhere (the CLI) and for the end of those managed elsewhere. */
    public void watchStore(Duration period) {
        history.watchStore(timers, period);
    }

    ScheduledExecutorService timers() {
        return timers;
    }

    ExecutorService workers() {
        return workers;
    }

    SessionFinisher finisher() {
        return finisher;
    }

    SessionStore store() {
        return store;
    }

    /** Removes a finished session from the list and the store; its artifact too when asked. */
    public long remove(Session session, boolean withArtifact) throws IOException {
        if (!session.status().isTerminal()) {
            throw new IllegalStateException("session " + session.id() + " is still " + session.status().word() + ": kill it first");
        }
        long bytes = store.delete(session.id(), withArtifact, config.artifacts());
        sessions.remove(session);
        recorder.forget(session.id());
        return bytes;
    }

    /** Removes every finished session (and their artifacts); running ones stay. */
    public int clearFinished() throws IOException {
        int n = 0;
        for (Session s : sessions.all()) {
            if (s.status().isTerminal()) {
                remove(s, true);
                n++;
            }
        }
        return n;
    }

    /** Where the retention limits come from at each prune (the config's, unless set). */
    public void retentionFrom(java.util.function.Supplier<EngineConfig.Retention> source) {
        this.retention = source;
    }

    /** Where the secret patterns come from (the settings' {@code secret_env_patterns}); the defaults until set. */
    public void secretsFrom(java.util.function.Supplier<dev.runboard.session.SecretEnv> source) {
        this.secrets = source;
    }

    /**
     * The spec with its secret names marked, as every new session's spec is before it is recorded: the
     * record keeps the values and the names, and every snapshot masks those names.
     */
    public SessionSpec marked(SessionSpec spec) {
        dev.runboard.session.SecretEnv now;
        try {
            now = secrets.get();
        } catch (RuntimeException unreadable) {
            now = dev.runboard.session.SecretEnv.DEFAULT; // settings that do not read: hide by the defaults rather than show
        }
        return spec.markedBy(now);
    }

    /** Prunes the oldest finished sessions beyond the retention limits; running ones are never touched. */
    void applyRetention() {
        if (!ownsHistory) {
            return;
        }
        for (Session s : Retention.toPrune(sessions.all(), retention.get())) {
            try {
                remove(s, true);
            } catch (IOException | IllegalStateException e) {
                warn("could not prune session " + s.id() + ": " + e.getMessage());
            }
        }
    }

    @Override
    public SessionInsight insight(String id) {
        return monitor.insight(id);
    }

    /**
     * Stops the engine's own threads and lets go of its sessions. Running commands are left
     * running: they outlive the window by design, and the next runboard adopts them.
     */
    @Override
    public void close() {
        monitor.close();
        times.close();
        remote.close();
        timers.shutdownNow();
        workers.shutdown();
        try {
            // Let a session that is being finished write its record before the caller moves on.
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        managed.closeAll();
    }

    static ThreadFactory daemonThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
