package dev.runboard.process;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import dev.runboard.store.RowIndex;
import dev.runboard.store.SessionLock;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The sessions of a data dir as a client sees them: read from the records and captures the owner
 * writes, never written here (only {@code rows.index}, a cache of their rows, is). Commands go to the supervisor through a {@link SupervisorLink}.
 * CPU, memory and the process tree are sampled here from /proc (reading needs no ownership), so
 * every running session shows them whoever started it. When a running session has no owner (its
 * supervisor or {@code exec} died), this asks for a supervisor, which adopts it.
 */
public final class SupervisedSessions extends SessionsById {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(SupervisedSessions.class.getName());
    }
    /** How often running sessions are checked for a lost owner, and so how often one may trigger a supervisor start (a JVM). */
    private static final Duration OWNER_RETRY = Duration.ofSeconds(2);
    /** How often {@link #poll} lists {@code sessions/} even when its time says nothing was made or removed. */
    private static final Duration FULL_PASS = Duration.ofSeconds(30);
    /** JavaFX's application thread, known by name: this layer must not import JavaFX (ArchUnit). */
    static final String FX_THREAD = "JavaFX Application Thread";

    private final SessionStore store;
    private final RecordWatch records;
    private final SupervisorLink link;
    private final SessionMonitor monitor;
    private final List<Consumer<String>> warningListeners = new CopyOnWriteArrayList<>();
    /** Where warnings are said instead of the log (see {@link #warnThrough}); null: the log. */
    private volatile Consumer<String> logSink;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(SessionEngine.daemonThreads("runboard-follow"));
    private final ExecutorService requests = Executors.newCachedThreadPool(SessionEngine.daemonThreads("runboard-request"));
    private final LingeringWatch lingering;
    /** Writes rows.index after a load; its own thread, so that closing waits for it and leaves no half-written file behind. */
    private final ExecutorService indexWriter = Executors.newSingleThreadExecutor(SessionEngine.daemonThreads("runboard-rows-index"));
    private volatile long nextOwnerCheck;
    /** {@code sessions/}'s time at the last listing {@link #poll} may stand on; null when it must list again. Timer thread. */
    private FileTime listedUnchanged;
    private long nextFullPass;
    private long remoteUsageAt;
    private java.util.Map<String, ResourceSampler.Usage> remoteUsage = java.util.Map.of();

    public SupervisedSessions(EngineConfig config, SupervisorLink link) {
        super(config);
        this.store = config.store();
        this.records = new RecordWatch(store);
        this.link = link;
        // The supervisor enforces rules, watchdogs and guards; here they are only seen, never acted on.
        this.monitor = new SessionMonitor(config.clock(), (s, why, reason) -> { }, SessionMonitor.DEFAULT_PERIOD,
                s -> WrappedCommand.groupOf(store, s));
        this.lingering = new LingeringWatch(config.os(), timer, this::warn);
        // A remote session's processes are on its host: the supervisor's poll samples them, and says.
        this.monitor.sampleRemoteWith(this::remoteUsage);
    }

    /** The supervisor's usage of every running remote session, asked at most once per monitor pass. */
    private synchronized ResourceSampler.Usage remoteUsage(Session session) {
        long now = System.nanoTime();
        if (now - remoteUsageAt > SessionMonitor.DEFAULT_PERIOD.toNanos() / 2) {
            remoteUsageAt = now;
            List<String> ids = sessions.all().stream().filter(s -> s.spec().isRemote() && s.status().isLive())
                    .map(Session::id).toList();
            remoteUsage = ids.isEmpty() ? java.util.Map.of() : link.usage(ids);
        }
        return remoteUsage.get(session.id());
    }

    /** Reads every record once; returns the warnings about records that could not be read. */
    public List<String> load() {
        SessionStore.Rows result = store.loadRows();
        List<SessionRecord> records = result.records();
        // Restoring a finished session only builds objects (nothing to watch): in parallel, then
        // added in the records' order (the table's order when it is not sorted).
        Session[] finished = new Session[records.size()];
        java.util.stream.IntStream.range(0, records.size()).parallel().forEach(i -> {
            SessionRecord r = records.get(i);
            if (r.status().isTerminal()) {
                RowIndex.Row row = result.rows().get(r.id());
                finished[i] = restore(r, row != null ? finishedOutcome(row, r.spec().previewBytes()) : null);
            }
        });
        if (result.indexStale()) {
            // For the next window: its rows from one file. Written off the reading thread, after this load.
            List<RowIndex.Row> rows = List.copyOf(result.rows().values());
            try {
                indexWriter.execute(() -> saveRows(rows));
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // closed while loading: the next window writes it
            }
        }
        synchronized (sessions) {
            List<Session> added = new java.util.ArrayList<>(finished.length);
            for (int i = 0; i < finished.length; i++) {
                if (sessions.find(records.get(i).id()).isEmpty()) { // the follower's timer or a start may have got there first
                    added.add(finished[i] != null ? finished[i] : restore(records.get(i)));
                }
            }
            sessions.addAll(added);
        }
        requestOwnerIfNeeded();
        result.warnings().forEach(this::warn);
        return result.warnings();
    }

    /** Follows the data dir every {@code period}: new sessions, ends, removals. */
    public void follow(Duration period) {
        timer.scheduleWithFixedDelay(() -> {
            try {
                poll();
            } catch (RuntimeException e) {
                log().log(Level.WARNING, "following the data dir failed", e);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * What {@link #follow} runs: {@link #refresh}, or, while {@code sessions/} has not changed since a
     * listing that found a record for every folder, only the running sessions' records. Listing
     * 10,000 folders every poll kept a window of that history at 6 % of a core while nothing ran
     * (docs/BENCHMARKS.md §14); a folder made or removed changes the folder's time, and a full pass
     * runs at least every {@link #FULL_PASS} all the same. A folder whose record cannot be read keeps
     * every poll a full pass, as it was before.
     */
    void poll() {
        FileTime modified = store.sessionsModified(); // before the listing: a change during it shows at the next poll
        if (modified == null || !modified.equals(listedUnchanged) || System.nanoTime() >= nextFullPass) {
            boolean complete = refresh();
            // Trusted only when that time is a second old: file times move in coarse ticks, and a folder made
            // after the listing within the same tick would leave the time as it was.
            boolean settled = modified != null && modified.toMillis() < System.currentTimeMillis() - 1000;
            listedUnchanged = complete && settled ? modified : null;
            nextFullPass = System.nanoTime() + FULL_PASS.toNanos();
        } else {
            for (Session s : sessions.all()) {
                followIfChanged(s);
            }
            requestOwnerIfNeeded();
        }
    }

    /**
     * One pass over the data dir: new sessions, removed ones, and the running ones' records. Returns
     * whether every folder listed had a record to add (one made a moment ago may not yet).
     */
    public boolean refresh() {
        List<String> ids = store.ids();
        Set<String> present = new HashSet<>(ids);
        boolean complete = true;
        for (String id : ids) {
            if (!sessions.knows(id)) {
                Optional<SessionRecord> record = records.read(id);
                record.ifPresent(this::addIfNew);
                complete &= record.isPresent();
            }
        }
        for (Session s : sessions.all()) {
            if (!present.contains(s.id())) {
                sessions.remove(s); // removed by another client or pruned by the supervisor
            } else {
                followIfChanged(s);
            }
        }
        requestOwnerIfNeeded();
        return complete;
    }

    private void followIfChanged(Session s) {
        if (!s.status().isTerminal() && records.changed(s.id())) {
            Optional<SessionRecord> record = records.read(s.id());
            record.ifPresentOrElse(r -> follow(s, r), () -> records.forget(s.id())); // unreadable now: read it again next poll
        }
    }

    /** The session of this record, added to the list unless the follower's timer or a start got there first. */
    private Session addIfNew(SessionRecord record) {
        synchronized (sessions) {
            Optional<Session> known = sessions.find(record.id());
            if (known.isPresent()) {
                return known.get();
            }
            Session s = restore(record);
            if (s.status().isTerminal()) {
                lingering.watch(s); // it ended before this window saw it run: its wrapper may still hold what it left
            }
            sessions.add(s);
            return s;
        }
    }

    private void saveRows(List<RowIndex.Row> rows) {
        try {
            store.saveRows(rows);
        } catch (IOException | RuntimeException e) {
            log().log(Level.FINE, "could not write the rows index", e); // a cache: the next window reads the records
        }
    }

    private Session restore(SessionRecord record) {
        return restore(record, null);
    }

    /** The session of this record; with {@code outcome}, an ended one's, instead of the record's own. */
    private Session restore(SessionRecord record, SessionOutcome outcome) {
        SessionSpec spec = record.spec().toSpec();
        Path capture = store.file(record.id(), SessionStore.CAPTURE);
        Session s = record.status().isWaiting()
                ? Session.restoreWaiting(record.id(), spec, capture, config.clock(), record.startedAt(), record.status(),
                        record.reason())
                : Session.restore(record.id(), spec, capture, config.clock(), record.pid(), record.pidStartTicks(),
                        record.startedAt(), outcome != null ? outcome : record.outcome(), record.killReport(),
                        record.resources(), record.events());
        s.restoreStack(record.stack(), record.ready());
        followConnection(s, record);
        s.slurm(record.slurm());
        if (!s.status().isTerminal()) {
            s.watchOutput(new CaptureTail(capture, spec.previewBytes()));
            // No stamp taken here: the record may have been rewritten since it was read (a quick command
            // ends between its start and this line), and a stamp of the newer file would hide that end
            // for good. The next poll reads it once more; following a record twice changes nothing.
            records.forget(s.id());
            if (!s.status().isWaiting()) {
                monitor.watch(s);
            }
        }
        return s;
    }

    /**
     * An ended session's outcome as its row holds it: the preview's sizes and last line, with the
     * bytes read back from the store when the session is shown (a finished session never changes;
     * a long history held every preview in memory). Null while the session runs.
     */
    private SessionOutcome finishedOutcome(RowIndex.Row row, int bound) {
        String id = row.id();
        return row.outcome(() -> store.previewOf(id, bound));
    }

    /** Catches up with a running session's new record: its events, and its end. */
    private void follow(Session s, SessionRecord record) {
        s.restoreStack(record.stack(), record.ready());
        followConnection(s, record);
        s.slurm(record.slurm());
        if (record.status().isWaiting()) {
            s.waitFor(record.status(), record.reason()); // why it waits changed
        } else if (record.pid() != null && s.pid() == null) {
            s.started(record.pid(), record.pidStartTicks(), record.startedAt()); // it waited, now it runs
            monitor.watch(s);
        }
        List<dev.runboard.session.SessionEvent> known = s.state().events();
        record.events().stream().filter(e -> !known.contains(e)).forEach(s::recordEvent);
        if (record.status().isTerminal()) {
            end(s, record);
        }
    }

    /** A remote session's link to its host as its owner last recorded it (the window shows what the CLI shows). */
    private static void followConnection(Session s, SessionRecord record) {
        if (s.spec().isRemote() && !record.status().isTerminal()) {
            s.connection(record.connection());
        }
    }

    private void end(Session s, SessionRecord record) {
        monitor.exited(s);
        lingering.watch(s); // what the command left behind, which its wrapper still holds: Kill can end it
        s.recordKill(record.killReport());
        s.recordResources(record.resources());
        s.finish(record.outcome());
        records.forget(s.id());
    }

    /** A running session nobody holds the lock of has lost its owner: bring a supervisor to adopt it. */
    private void requestOwnerIfNeeded() {
        if (System.nanoTime() < nextOwnerCheck) {
            return;
        }
        // Not every poll: the check opens and locks a file per running session.
        nextOwnerCheck = System.nanoTime() + OWNER_RETRY.toNanos();
        boolean orphan = sessions.all().stream().anyMatch(s -> !s.status().isTerminal()
                && !SessionLock.isHeld(store.file(s.id(), SessionStore.LOCK)));
        if (orphan) {
            requests.execute(() -> {
                try {
                    link.ensureRunning();
                } catch (IOException e) {
                    warn("sessions are running without a supervisor, and none could be started: " + e.getMessage());
                }
            });
        }
    }

    @Override
    public void onWarning(Consumer<String> listener) {
        warningListeners.add(listener);
    }

    /**
     * Sends warnings to {@code sink} instead of the log: a command in a terminal says them in its own
     * one-line voice, where the log's two-line format would read as a crash.
     */
    public void warnThrough(Consumer<String> sink) {
        this.logSink = sink;
    }

    private void warn(String message) {
        Consumer<String> sink = logSink;
        if (sink != null) {
            sink.accept(message);
        } else {
            log().warning(message);
        }
        warningListeners.forEach(l -> l.accept(message));
    }

    /**
     * Every command waits for the supervisor's answer, and may first have to start it (a JVM:
     * seconds). The window sends them from its background tasks; one sent from the FX thread would
     * freeze the window, so it is refused outright, even when it would have been quick.
     */
    private static void refuseOnFxThread(String command) {
        if (Thread.currentThread().getName().equals(FX_THREAD)) {
            throw new IllegalStateException(command + " must not be called on the FX thread: it waits for the supervisor,"
                    + " which may first have to start. Run it in the background (the window's UiTasks).");
        }
    }

    @Override
    public List<String> up(Path file, List<String> names, boolean force) throws IOException {
        List<String> ids = link.up(file, names, force);
        refresh(); // the waiting sessions' records are on disk: show them now
        return ids;
    }

    @Override
    public List<String> down(Path file, List<String> names) throws IOException {
        List<String> stopped = link.down(file, names);
        refresh();
        return stopped;
    }

    public Session start(SessionSpec spec) throws InvalidSpecException {
        refuseOnFxThread("start");
        spec.validate();
        String id;
        try {
            id = link.start(spec);
        } catch (IOException e) {
            throw new InvalidSpecException("supervisor", e.getMessage());
        }
        SessionRecord record = records.read(id).orElseThrow(() ->
                new UncheckedIOException(new IOException("the supervisor started session " + id + " but its record cannot be read")));
        return addIfNew(record);
    }

    public CompletableFuture<KillReport> kill(Session session, Signal signal, Duration grace) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return link.kill(session.id(), signal, grace);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, requests);
    }

    @Override
    public void killAll(Duration grace) {
        refuseOnFxThread("killAll");
        List<CompletableFuture<KillReport>> kills = sessions.all().stream()
                .filter(s -> !s.status().isTerminal()).map(s -> kill(s, Signal.TERM, grace)).toList();
        for (CompletableFuture<KillReport> k : kills) {
            try {
                k.get(grace.toMillis() + 10_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                warn("killing all sessions: " + e.getMessage());
            }
        }
        refresh();
    }

    public boolean signal(Session session, Signal signal) {
        refuseOnFxThread("signal");
        try {
            boolean sent = !session.status().isTerminal() && link.signal(session.id(), signal);
            if (sent) {
                SessionSignals.markPaused(session, signal, monitor);
            }
            return sent;
        } catch (IOException e) {
            warn(e.getMessage());
            return false;
        }
    }

    public List<Long> signalProcess(Session session, long pid, Signal signal, boolean subtree) {
        refuseOnFxThread("signalProcess");
        try {
            return link.signalProcess(session.id(), pid, signal, subtree);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Input goes to the supervisor, which holds the pipe; each write is one request. */
    public OutputStream stdin(Session session) {
        if (session.status().isTerminal()) {
            return null;
        }
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                refuseOnFxThread("a write to stdin");
                link.stdin(session.id(), java.util.Arrays.copyOfRange(b, off, off + len));
            }

            @Override
            public void close() throws IOException {
                refuseOnFxThread("closing stdin");
                link.closeStdin(session.id());
            }
        };
    }

    public SessionInsight insight(Session session) {
        return monitor.insight(session.id());
    }

    /** The last pass of the resource sampler shared by all sessions, or null before the first. */
    public ResourceSampler.Pass lastSamplerPass() {
        return monitor.lastPass();
    }

    public long remove(Session session, boolean withArtifact) throws IOException {
        refuseOnFxThread("remove");
        if (!session.status().isTerminal()) {
            throw new IllegalStateException("session " + session.id() + " is still " + session.status().word() + ": kill it first");
        }
        long bytes = link.remove(session.id(), withArtifact);
        sessions.remove(session);
        return bytes;
    }

    @Override
    public int clearFinished() throws IOException {
        refuseOnFxThread("clearFinished");
        int n = 0;
        for (Session s : sessions.all()) {
            if (s.status().isTerminal()) {
                remove(s, true);
                n++;
            }
        }
        return n;
    }

    @Override
    public SessionInsight insight(String id) {
        return monitor.insight(id);
    }

    @Override
    public void close() {
        monitor.close();
        timer.shutdownNow();
        requests.shutdownNow();
        indexWriter.shutdownNow(); // an interrupted write leaves the old index (the write is atomic)
        try {
            indexWriter.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
