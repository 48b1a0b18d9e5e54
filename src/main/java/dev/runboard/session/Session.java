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
    private static final Logger LOG = Logger.getLogger(Session.class.getName());

    private final String id;
    private final SessionSpec spec;
    private final Path captureFile;
    private final Clock clock;
    private final AtomicReference<SessionStatus> status = new AtomicReference<>(SessionStatus.RUNNING);
    /** KILLED or TIMEOUT once somebody asked the session to end; the first request names the status. */
    private final AtomicReference<SessionStatus> requestedEnd = new AtomicReference<>();
    /** Why a watchdog, guard or output rule ended the session; null for a person's kill or a timeout. */
    private volatile String requestedReason;
    private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();
    private volatile Instant startedAt;
    private volatile Long pid;
    private volatile long pidStartTicks;
    private volatile LiveOutput liveOutput = LiveOutput.NONE;
    private volatile SessionOutcome outcome;
    private volatile KillReport killReport;
    private volatile ResourceTotals resources;
    private boolean listenersTold;

    public Session(String id, SessionSpec spec, Path captureFile, Clock clock) {
        this.id = Objects.requireNonNull(id);
        this.spec = Objects.requireNonNull(spec);
        this.captureFile = captureFile;
        this.clock = clock;
        this.startedAt = clock.instant();
    }

    public String id() {
        return id;
    }

    public SessionSpec spec() {
        return spec;
    }

    public SessionStatus status() {
        return status.get();
    }

    public Path captureFile() {
        return captureFile;
    }

    public Long pid() {
        return pid;
    }

    public Instant startedAt() {
        return startedAt;
    }

    /** The env entry every process of this session carries, so escaped processes can be found. */
    public String tag() {
        return "RUNBOARD_SESSION=" + id;
    }

    /**
     * Called by the engine once the process runs. {@code pidStartTicks} (the kernel's start time
     * of the pid) tells this process apart from a later one that reuses the pid.
     */
    public void started(long pid, long pidStartTicks, Instant at) {
        this.pid = pid;
        this.pidStartTicks = pidStartTicks;
        this.startedAt = at;
    }

    /** A session rebuilt from the store: finished (with its outcome) or still running (watched again by an engine). */
    public static Session restore(String id, SessionSpec spec, Path captureFile, Clock clock, Long pid,
            long pidStartTicks, Instant startedAt, SessionOutcome outcome, KillReport killReport) {
        return restore(id, spec, captureFile, clock, pid, pidStartTicks, startedAt, outcome, killReport, null);
    }

    /** As {@link #restore(String, SessionSpec, Path, Clock, Long, long, Instant, SessionOutcome, KillReport)}, with stored resource totals. */
    public static Session restore(String id, SessionSpec spec, Path captureFile, Clock clock, Long pid,
            long pidStartTicks, Instant startedAt, SessionOutcome outcome, KillReport killReport, ResourceTotals resources) {
        Session s = new Session(id, spec, captureFile, clock);
        s.resources = resources;
        s.pid = pid;
        s.pidStartTicks = pidStartTicks;
        s.startedAt = startedAt;
        s.killReport = killReport;
        if (outcome != null) {
            s.status.set(outcome.status());
            s.outcome = outcome;
            s.listenersTold = true;
        }
        return s;
    }

    /** Points a restored running session at its live output. */
    public void watchOutput(LiveOutput liveOutput) {
        this.liveOutput = liveOutput;
    }

    public long pidStartTicks() {
        return pidStartTicks;
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
     * too, for an output rule that fails the session.
     */
    public boolean requestEnd(SessionStatus why, String reason) {
        if (why != SessionStatus.KILLED && why != SessionStatus.TIMEOUT && why != SessionStatus.FAILED) {
            throw new IllegalArgumentException("only killed, timeout or failed can be requested, not " + why.word());
        }
        boolean first = status() == SessionStatus.RUNNING && requestedEnd.compareAndSet(null, why);
        if (first) {
            requestedReason = reason;
        }
        return first;
    }

    public String requestedReason() {
        return requestedReason;
    }

    public SessionStatus requestedEnd() {
        return requestedEnd.get();
    }

    public void recordKill(KillReport report) {
        this.killReport = report;
    }

    public KillReport killReport() {
        return killReport;
    }

    /** Records the tree's peak memory and CPU time so far (the engine's monitor samples them). */
    public void recordResources(ResourceTotals totals) {
        this.resources = totals;
    }

    public ResourceTotals resources() {
        return resources;
    }

    /** Moves to the terminal status once; returns false (and changes nothing) if it had already ended. */
    public boolean finish(SessionOutcome outcome) {
        if (!status.compareAndSet(SessionStatus.RUNNING, outcome.status())) {
            return false;
        }
        this.outcome = outcome;
        // The outcome holds the final preview; the live reader's copy would double a finished row's memory.
        this.liveOutput = LiveOutput.NONE;
        tellListeners(snapshot());
        return true;
    }

    public SessionOutcome outcome() {
        return outcome;
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
            LOG.log(Level.WARNING, "session listener failed for " + id, e);
        }
    }

    public Duration elapsed() {
        SessionOutcome o = outcome;
        Instant end = o != null ? o.endedAt() : clock.instant();
        Duration d = Duration.between(startedAt, end);
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
        SessionOutcome o = outcome;
        SessionSpec s = spec;
        LiveOutput live = liveOutput;
        OutputPreview preview = o != null ? o.preview() : (freshOutput ? live.read() : live.lastRead());
        return new SessionSnapshot(
                o != null ? o.status() : SessionStatus.RUNNING,
                id,
                s.displayCommand(),
                s.usesShell() ? null : s.argv(),
                slashes(s.cwd()),
                s.shell() == null ? null : slashes(s.shell()),
                s.env(),
                pid,
                startedAt,
                o != null ? o.endedAt() : null,
                elapsed().toMillis() / 1000.0,
                s.timeout() == null ? null : s.timeout().toMillis() / 1000.0,
                s.grace().toMillis() / 1000.0,
                s.nice(),
                o != null ? o.exitCode() : null,
                o != null ? o.signal() : null,
                o != null ? o.reason() : null,
                preview,
                o != null ? o.artifact() : null,
                o != null ? o.artifactError() : null,
                o != null ? o.artifactErrorCode() : null,
                o != null ? o.captureFile() : (captureFile == null ? null : slashes(captureFile)),
                killReport,
                resources);
    }

    public static String slashes(Path p) {
        return p == null ? null : p.toString().replace('\\', '/');
    }
}
