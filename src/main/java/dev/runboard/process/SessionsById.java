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
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The window's commands ({@link SessionService}): by id, with snapshots, never a {@link Session};
 * written once on top of the {@code Session}-based commands that the owner ({@link SessionEngine})
 * and the client ({@link SupervisedSessions}) each have.
 */
abstract class SessionsById implements SessionService {

    public abstract List<Session> sessions();

    public abstract Optional<Session> find(String id);

    public abstract void onAdd(Consumer<Session> listener);

    public abstract void onRemove(Consumer<Session> listener);

    public abstract Session start(SessionSpec spec) throws InvalidSpecException;

    public abstract CompletableFuture<KillReport> kill(Session session, Signal signal, Duration grace);

    public abstract boolean signal(Session session, Signal signal);

    public abstract List<Long> signalProcess(Session session, long pid, Signal signal, boolean subtree);

    public abstract OutputStream stdin(Session session);

    public abstract void remove(Session session, boolean withArtifact) throws IOException;

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
    public void remove(String id, boolean withArtifact) throws IOException {
        Optional<Session> s = find(id);
        if (s.isPresent()) {
            remove(s.get(), withArtifact);
        }
    }

    private static IllegalArgumentException unknown(String id) {
        return new IllegalArgumentException("no session " + id);
    }
}
