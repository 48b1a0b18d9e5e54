package dev.runboard.session;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What the window and the CLI's readers need of the sessions of a data dir: a live list, and
 * commands on it. The engine's {@code SessionEngine} owns the sessions it serves (the supervisor,
 * {@code exec}); {@code SupervisedSessions} follows the data dir read-only and sends every command
 * to the supervisor, which alone writes records. No I/O of its own: the window is a client of it.
 */
public interface SessionService extends AutoCloseable {

    /** The data dir whose sessions these are (the parent of its {@code sessions} dir). */
    Path dataDir();

    /** What this platform cannot do (no /proc, no process groups...), for the user to see; empty when nothing. */
    Optional<String> limitations();

    /** Every session known, oldest first. */
    List<Session> sessions();

    default Optional<Session> find(String id) {
        return sessions().stream().filter(s -> s.id().equals(id)).findFirst();
    }

    /** Told (on the thread that adds it) about each session that joins the list. */
    void onAdd(Consumer<Session> listener);

    /** Told when a session leaves the list (removed, or pruned by retention). */
    void onRemove(Consumer<Session> listener);

    /** Told of problems a person should see. */
    void onWarning(Consumer<String> listener);

    /** Validates and starts a session; an invalid spec throws before anything runs. */
    Session start(SessionSpec spec) throws InvalidSpecException;

    /** Kills the session's whole tree: {@code signal} once, KILL after {@code grace}, then a sweep by tag. */
    CompletableFuture<KillReport> kill(Session session, Signal signal, Duration grace);

    /** Kills every running session and waits until each has ended. */
    void killAll(Duration grace);

    /** One signal to the session's process group, without ending it. */
    boolean signal(Session session, Signal signal);

    /** One signal to one process of the session (or its subtree); returns the pids signalled. */
    List<Long> signalProcess(Session session, long pid, Signal signal, boolean subtree);

    /** The running session's stdin; null when it cannot take input. */
    OutputStream stdin(Session session);

    /** CPU, memory, process tree and watchdog findings from the last pass over /proc; null when unknown. */
    SessionInsight insight(Session session);

    /** Removes a finished session from the list and the store; its artifact too when asked. */
    void remove(Session session, boolean withArtifact) throws IOException;

    /** Removes every finished session and its artifacts; returns how many. */
    int clearFinished() throws IOException;

    @Override
    void close();
}
