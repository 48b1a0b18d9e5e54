package dev.runboard.process;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionService;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What the owner ({@link SessionEngine}) and the client ({@link SupervisedSessions}) share: their
 * surroundings, the list of sessions they know, and the window's commands ({@link SessionService})
 * by id, with snapshots, never a {@link Session}, written once on top of the {@code Session}-based
 * commands each has.
 */
abstract class SessionsById implements SessionService {
    final EngineConfig config;
    final SessionList sessions = new SessionList();

    SessionsById(EngineConfig config) {
        this.config = config;
    }

    public EngineConfig config() {
        return config;
    }

    public OsProcesses os() {
        return config.os();
    }

    @Override
    public Path dataDir() {
        return config.dataDir();
    }

    @Override
    public Optional<String> limitations() {
        return config.os().limitations();
    }

    /** Every session known (started, loaded from history, or seen in the store), oldest first. */
    public List<Session> sessions() {
        return sessions.all();
    }

    public Optional<Session> find(String id) {
        return sessions.find(id);
    }

    /** The session with this whole id, else every session whose id starts with it: what a person typed names these. */
    public List<Session> matching(String idOrPrefix) {
        Optional<Session> whole = find(idOrPrefix);
        return whole.isPresent() ? List.of(whole.get())
                : sessions().stream().filter(s -> s.id().startsWith(idOrPrefix)).toList();
    }

    /** Told (on the thread that adds it) about each session that joins the list: started, loaded or discovered. */
    public void onAdd(Consumer<Session> listener) {
        sessions.onAdd(listener);
    }

    /** Told when a session leaves the list (removed by a person, or pruned by retention). */
    public void onRemove(Consumer<Session> listener) {
        sessions.onRemove(listener);
    }

    public abstract Session start(SessionSpec spec) throws InvalidSpecException;

    public abstract CompletableFuture<KillReport> kill(Session session, Signal signal, Duration grace);

    public abstract boolean signal(Session session, Signal signal);

    public abstract List<Long> signalProcess(Session session, long pid, Signal signal, boolean subtree);

    public abstract OutputStream stdin(Session session);

    /** Forgets a finished session and deletes its files (its artifact too when asked); returns the bytes deleted. */
    public abstract long remove(Session session, boolean withArtifact) throws IOException;

    @Override
    public List<SessionSnapshot> snapshots() {
        return sessions().stream().map(Session::snapshot).toList();
    }

    @Override
    public SessionSnapshot snapshot(String id, boolean freshOutput) {
        return find(id).map(s -> s.snapshot(freshOutput)).orElse(null);
    }

    @Override
    public SessionSpec spec(String id) {
        return find(id).map(Session::spec).orElse(null);
    }

    @Override
    public void onAdded(Consumer<SessionSnapshot> listener) {
        onAdd(s -> listener.accept(s.snapshot()));
    }

    @Override
    public void onRemoved(Consumer<String> listener) {
        onRemove(s -> listener.accept(s.id()));
    }

    @Override
    public SessionSnapshot launch(SessionSpec spec) throws InvalidSpecException {
        return start(spec).snapshot();
    }

    @Override
    public CompletableFuture<KillReport> kill(String id, Signal signal, Duration grace) {
        Optional<Session> s = find(id);
        return s.isPresent() ? kill(s.get(), signal, grace) : CompletableFuture.failedFuture(unknown(id));
    }

    @Override
    public boolean signal(String id, Signal signal) {
        return find(id).map(s -> signal(s, signal)).orElse(false);
    }

    @Override
    public List<Long> signalProcess(String id, long pid, Signal signal, boolean subtree) {
        return signalProcess(find(id).orElseThrow(() -> unknown(id)), pid, signal, subtree);
    }

    @Override
    public OutputStream stdin(String id) {
        return find(id).map(this::stdin).orElse(null);
    }

    @Override
    public long remove(String id, boolean withArtifact) throws IOException {
        Optional<Session> s = find(id);
        return s.isPresent() ? remove(s.get(), withArtifact) : 0;
    }

    private static IllegalArgumentException unknown(String id) {
        return new IllegalArgumentException("no session " + id);
    }
}
