package dev.runboard.session;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One launch of a command: thread-safe, owned by the engine. Its status moves from
 * {@code RUNNING} to exactly one terminal status, once; {@link #snapshot()} gives an immutable view.
 */
public final class Session {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(Session.class.getName());
    }
    /** The environment variable every process of a session carries, its value the session's id (see {@link #tag()}). */
    public static final String TAG_VARIABLE = "RUNBOARD_SESSION";

    private final String id;
    private final SessionSpec spec;
    private final Path captureFile;
    private final Clock clock;
    /** The one value that changes: every read sees one phase whole, every change is one compare-and-set. */
    private final AtomicReference<SessionState> state;
    private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();
    /** Where a running session's output is read from; a reader handle, not part of the state. */
    private volatile LiveOutput liveOutput = LiveOutput.NONE;
    /** What the command's earlier runs say about this one; set once it joins a list that knows them. */
    private volatile RunEstimate estimate = RunEstimate.NONE;
    private boolean listenersTold;
    /** A remote session's link to its host, as {@link #connection()} says it. */
    public static final String CONNECTED = "connected";
    /** A remote session whose host cannot be reached now (its command runs on; its output waits there). */
    public static final String DISCONNECTED = "disconnected";
    /** A remote session's link to its host: {@link #CONNECTED} or {@link #DISCONNECTED}; null when local. */
    private volatile String connection;
    /** Processes of the ended session its wrapper still holds (the command left them behind); empty when none. */
    private volatile java.util.List<ProcessRef> lingering = java.util.List.of();
    /** A Slurm session's job as Slurm last told it (null until submitted, and for other sessions). */
    private volatile SlurmJob slurm;
    private volatile boolean slurmCommandStarted;
    /** Its place in a stack, or null for a plain session; set before anyone else sees the session. */
    private volatile StackLink stack;

    public Session(String id, SessionSpec spec, Path captureFile, Clock clock) {
        this(id, spec, captureFile, clock, new SessionState.Launching(clock.instant(), null));
    }

    private Session(String id, SessionSpec spec, Path captureFile, Clock clock, SessionState initial) {
        this.id = Objects.requireNonNull(id);
        this.spec = Objects.requireNonNull(spec);
        this.captureFile = captureFile;
        this.clock = clock;
        this.state = new AtomicReference<>(initial);
    }

    /** A session that waits before it starts (issue #17): pending or queued, with the reason. */
    public static Session waiting(String id, SessionSpec spec, Path captureFile, Clock clock, StackLink stack,
                                  SessionStatus status, String reason) {
        Boolean ready = stack != null && stack.probed() ? Boolean.FALSE : null; // probed: not ready until it passes
        Session s = new Session(id, spec, captureFile, clock, new SessionState.Waiting(clock.instant(), status, reason, ready));
        s.stack = stack;
        return s;
    }

    public String id() {
        return id;
    }

    /** Its place in a stack, or null. */
    public StackLink stack() {
        return stack;
    }

    /** Sets the stack facts of a session rebuilt from its record (or made by {@code start} with a link). */
    public void restoreStack(StackLink link, Boolean isReady) {
        this.stack = link;
        update(s -> s.withReady(isReady));
    }

    /** True once its readiness probe passed (false again when unhealthy); null without a probe. */
    public Boolean ready() {
        return state.get().ready();
    }

    /**
     * A readiness verdict (null: unchanged) and the event that tells it (null: none), as one change:
     * nobody sees the session ready without the event saying since when. The event is kept only while
     * it runs or has ended (a log probe's last look at an ended run); the verdict in any phase (a waiting
     * session is not ready).
     */
    public void noteReadiness(Boolean isReady, SessionEvent event) {
        update(s -> {
            SessionState after = isReady == null ? s : s.withReady(isReady);
            if (event != null && after instanceof SessionState.Running r) {
                return r.withEvent(event);
            }
            return event != null && after instanceof SessionState.Ended e ? e.withEvent(event) : after;
        });
    }

    /** While it waits, changes why (or moves between pending and queued); false once it started or ended. */
    public boolean waitFor(SessionStatus status, String reason) {
        SessionState before = update(s -> s instanceof SessionState.Waiting w
                ? new SessionState.Waiting(w.startedAt(), status, reason, w.ready()) : s);
        return before instanceof SessionState.Waiting;
    }

    /** Why it waits, while it does; null otherwise. */
    public String waitingReason() {
        return state.get() instanceof SessionState.Waiting w ? w.reason() : null;
    }

    public SessionSpec spec() {
        return spec;
    }

    /** The session's state now: one immutable value. */
    public SessionState state() {
        return state.get();
    }

    public SessionStatus status() {
        return state.get().status();
    }

    public Path captureFile() {
        return captureFile;
    }

    public Long pid() {
        return state.get().pid();
    }

    public Instant startedAt() {
        return state.get().startedAt();
    }

    public long pidStartTicks() {
        return state.get().pidStartTicks();
    }

    public KillReport killReport() {
        return state.get().killReport();
    }

    public ResourceTotals resources() {
        return state.get().resources();
    }

    /** The outcome once ended, else null. */
    public SessionOutcome outcome() {
        return state.get() instanceof SessionState.Ended e ? e.outcome() : null;
    }

    /** The env entry every process of this session carries, so escaped processes can be found. */
    public String tag() {
        return TAG_VARIABLE + "=" + id;
    }

    /**
     * Called by the engine once the process runs. {@code pidStartTicks} (the kernel's start time
     * of the pid) tells this process apart from a later one that reuses the pid.
     */
    public void started(long pid, long pidStartTicks, Instant at) {
        update(s -> s instanceof SessionState.Launching || s instanceof SessionState.Waiting
                ? new SessionState.Running(at, pid, pidStartTicks, null, null, List.of(), s.ready()) : s);
    }

    /** A session rebuilt from the store: finished (with its outcome) or still running (watched again by an engine). */
    public static Session restore(String id, SessionSpec spec, Path captureFile, Clock clock, Long pid,
            long pidStartTicks, Instant startedAt, SessionOutcome outcome, KillReport killReport) {
        return restore(id, spec, captureFile, clock, pid, pidStartTicks, startedAt, outcome, killReport, null);
    }

    /** As {@link #restore(String, SessionSpec, Path, Clock, Long, long, Instant, SessionOutcome, KillReport)}, with stored resource totals. */
    public static Session restore(String id, SessionSpec spec, Path captureFile, Clock clock, Long pid,
            long pidStartTicks, Instant startedAt, SessionOutcome outcome, KillReport killReport, ResourceTotals resources) {
        return restore(id, spec, captureFile, clock, pid, pidStartTicks, startedAt, outcome, killReport, resources, List.of());
    }

    /** A session rebuilt from its record, its events included. */
    public static Session restore(String id, SessionSpec spec, Path captureFile, Clock clock, Long pid,
            long pidStartTicks, Instant startedAt, SessionOutcome outcome, KillReport killReport, ResourceTotals resources,
            List<SessionEvent> events) {
        SessionState initial;
        if (outcome != null) {
            initial = new SessionState.Ended(startedAt, pid, pidStartTicks, outcome, killReport, resources, events);
        } else if (pid != null) {
            initial = new SessionState.Running(startedAt, pid, pidStartTicks, killReport, resources, events, null);
        } else {
            initial = new SessionState.Launching(startedAt, null);
        }
        Session s = new Session(id, spec, captureFile, clock, initial);
        s.listenersTold = outcome != null;
        return s;
    }

    /** A session rebuilt from a record that says it waits (pending or queued). */
    public static Session restoreWaiting(String id, SessionSpec spec, Path captureFile, Clock clock, Instant createdAt,
                                         SessionStatus status, String reason) {
        return new Session(id, spec, captureFile, clock, new SessionState.Waiting(createdAt, status, reason, null));
    }

    /** Judges this run's progress against its command's earlier runs from now on. */
    public void expect(RunEstimate estimate) {
        this.estimate = estimate;
    }

    /** Points a restored running session at its live output. */
    public void watchOutput(LiveOutput liveOutput) {
        this.liveOutput = liveOutput;
    }

    /**
     * Records that the session is being ended on purpose ({@code KILLED} or {@code TIMEOUT}).
     * Only the first request counts: a timeout that fires during a user's kill stays a kill.
     */
    public boolean requestEnd(SessionStatus why) {
        return requestEnd(why, null);
    }

    /**
     * As {@link #requestEnd(SessionStatus)}, with the reason recorded in the outcome; {@code FAILED}
     * too, for an output rule that fails the session. False when it had ended or was already asked to.
     */
    public boolean requestEnd(SessionStatus why, String reason) {
        SessionState.EndRequest request = new SessionState.EndRequest(why, reason);
        SessionState before = update(s -> s instanceof SessionState.Running r && r.endRequest() == null
                ? r.withEndRequest(request) : s);
        return before instanceof SessionState.Running r && r.endRequest() == null;
    }

    public String requestedReason() {
        return state.get() instanceof SessionState.Running r && r.endRequest() != null ? r.endRequest().reason() : null;
    }

    public SessionStatus requestedEnd() {
        return state.get() instanceof SessionState.Running r && r.endRequest() != null ? r.endRequest().why() : null;
    }

    /** Records a kill's report while the session runs; after its end the report it ended with stays. */
    public void recordKill(KillReport report) {
        update(s -> s instanceof SessionState.Running r ? r.withKillReport(report) : s);
    }

    /** Keeps an event with the session while it runs (the newest {@link SessionEvent#LIMIT}). */
    public void recordEvent(SessionEvent event) {
        update(s -> s instanceof SessionState.Running r ? r.withEvent(event) : s);
    }

    /**
     * Records whether the running tree is stopped (STOP sent, or found in state T): the status
     * reads {@code paused} until it runs again. No change once ended.
     */
    public void markPaused(boolean paused) {
        update(s -> s instanceof SessionState.Running r ? r.withPaused(paused) : s);
    }

    /** Records the tree's peak memory and CPU time so far (the engine's monitor samples them). */
    public void recordResources(ResourceTotals totals) {
        update(s -> s instanceof SessionState.Running r ? r.withResources(totals) : s);
    }

    /**
     * Moves to the ended phase, once: returns that state, or null (changing nothing) if the session
     * had already ended. Listeners are not told yet ({@link #announce()}): the owner first writes
     * the record from this very value, so what is on disk and what is told are the same.
     */
    public SessionState.Ended end(SessionOutcome outcome) {
        SessionState before = update(s -> s instanceof SessionState.Ended ? s : SessionState.Ended.from(s, outcome));
        if (before instanceof SessionState.Ended) {
            return null;
        }
        // The outcome holds the final preview; the live reader's copy would double a finished row's memory.
        this.liveOutput = LiveOutput.NONE;
        return (SessionState.Ended) state.get();
    }

    /** Tells the listeners of the end (once; only after {@link #end}). */
    public void announce() {
        if (state.get() instanceof SessionState.Ended) {
            tellListeners(snapshot());
        }
    }

    /** Ends and announces at once, for whoever keeps no record (a client following the owner's records). */
    public boolean finish(SessionOutcome outcome) {
        if (end(outcome) == null) {
            return false;
        }
        announce();
        return true;
    }

    /** Applies {@code change} atomically; returns the state it replaced. */
    private SessionState update(java.util.function.UnaryOperator<SessionState> change) {
        while (true) {
            SessionState before = state.get();
            SessionState after = change.apply(before);
            if (after == before || state.compareAndSet(before, after)) {
                return before;
            }
        }
    }

    /** Adds a listener; one added after the end is told at once, so each listener hears of the end exactly once. */
    public void addListener(SessionListener listener) {
        boolean tellNow;
        synchronized (listeners) {
            tellNow = listenersTold;
            if (!tellNow) {
                listeners.add(listener);
            }
        }
        if (tellNow) {
            tell(listener, snapshot());
        }
    }

    public void removeListener(SessionListener listener) {
        listeners.remove(listener);
    }

    private void tellListeners(SessionSnapshot last) {
        synchronized (listeners) {
            if (listenersTold) {
                return;
            }
            listenersTold = true;
        }
        for (SessionListener l : listeners) {
            tell(l, last);
        }
        listeners.clear();
    }

    private void tell(SessionListener listener, SessionSnapshot last) {
        try {
            listener.sessionEnded(last);
        } catch (RuntimeException | Error e) {
            // A broken listener must not stop the others from hearing, nor change the session.
            log().log(Level.WARNING, "session listener failed for " + id, e);
        }
    }

    public Duration elapsed() {
        return elapsed(state.get());
    }

    private Duration elapsed(SessionState st) {
        Instant end = st instanceof SessionState.Ended e ? e.outcome().endedAt() : clock.instant();
        Duration d = Duration.between(st.startedAt(), end);
        return d.isNegative() ? Duration.ZERO : d;
    }

    /** An immutable view; for a running session the preview is read from the live capture (O(bound)). */
    public SessionSnapshot snapshot() {
        return snapshot(true);
    }

    /**
     * As {@link #snapshot()}; with {@code freshOutput} false a running session's output is the
     * one last read rather than a new read of the capture file (status, exit and kill report
     * are current either way).
     */
    public SessionSnapshot snapshot(boolean freshOutput) {
        SessionState st = state.get();
        LiveOutput live = liveOutput;
        OutputPreview preview = st instanceof SessionState.Ended e ? e.outcome().preview()
                : (freshOutput ? live.read() : live.lastRead());
        Duration elapsed = elapsed(st);
        RunProgress progress = st instanceof SessionState.Running
                ? estimate.at(elapsed.toMillis() / 1000.0, preview.originalBytes()) : RunProgress.NONE;
        SessionSnapshot shot = SessionSnapshot.of(id, spec, captureFile, st, preview, elapsed, connection, progress, lingering)
                .withStack(stack, st.ready());
        return spec.isSlurm() ? shot.withSlurm(slurm) : shot;
    }

    /** A Slurm session's job as Slurm last told it; null when not known (or not a Slurm session). */
    public SlurmJob slurm() {
        return slurm;
    }

    /** Set by whatever follows the Slurm job (and from the record); returns whether it changed. */
    public boolean slurm(SlurmJob now) {
        boolean changed = !Objects.equals(slurm, now);
        slurm = now;
        return changed;
    }

    /**
     * Whether a Slurm job's command has begun: Slurm says RUNNING once it has given the job a node, and
     * the job's step can take seconds more to start runboard's wrapper there (a loaded node took over 2 s,
     * and a 2 s hang watchdog killed a job that never had the chance to print). Told by whatever follows the
     * job, when the wrapper has taken its environment file; not kept in the record (the next look says it again).
     */
    public boolean slurmCommandStarted() {
        return slurmCommandStarted;
    }

    public void slurmCommandStarted(boolean started) {
        slurmCommandStarted = started;
    }

    /** A remote session's connection to its host ({@code connected}, {@code disconnected}); null when local. */
    public String connection() {
        return connection;
    }

    /** Set by whatever follows the remote session; returns whether it changed. */
    public boolean connection(String now) {
        boolean changed = !Objects.equals(connection, now);
        connection = now;
        return changed;
    }

    /** Processes the ended session's wrapper still holds, as its owner last saw them. */
    public java.util.List<ProcessRef> lingering() {
        return lingering;
    }

    /** Set by the owner, which watches an ended session's wrapper while it holds processes; returns whether it changed. */
    public boolean lingering(java.util.List<ProcessRef> now) {
        java.util.List<ProcessRef> value = java.util.List.copyOf(now);
        boolean changed = !value.equals(lingering);
        lingering = value;
        return changed;
    }

    public static String slashes(Path p) {
        return p == null ? null : p.toString().replace('\\', '/');
    }
}
