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
 * What the window needs of the sessions of a data dir: pictures of them ({@link SessionSnapshot}s)
 * and commands on them, by session id. The engine's {@code SessionEngine} owns the sessions it
 * serves (the supervisor, {@code exec}); {@code SupervisedSessions} follows the data dir read-only
 * and sends every command to the supervisor, which alone writes records. The window is a client:
 * it never holds a {@link Session}, only ids, specs and snapshots.
 */
public interface SessionService extends AutoCloseable {

    /** The data dir whose sessions these are (the parent of its {@code sessions} dir). */
    Path dataDir();

    /** What this platform cannot do (no /proc, no process groups...), for the user to see; empty when nothing. */
    Optional<String> limitations();

    /** A picture of every session known, oldest first. */
    List<SessionSnapshot> snapshots();

    /**
     * The session's picture now, its output re-read from the capture when {@code freshOutput}
     * (else the last preview read); null when no such session is known (any more).
     */
    SessionSnapshot snapshot(String id, boolean freshOutput);

    /** The spec the session was started with; null when no such session is known. */
    SessionSpec spec(String id);

    /** Told (on the thread that adds it) of each session that joins the list, with its first picture. */
    void onAdded(Consumer<SessionSnapshot> listener);

    /** Told the id of each session that leaves the list (removed, or pruned by retention). */
    void onRemoved(Consumer<String> listener);

    /** Told of problems a person should see. */
    void onWarning(Consumer<String> listener);

    /** Validates and starts a session, returning its first picture; an invalid spec throws before anything runs. */
    SessionSnapshot launch(SessionSpec spec) throws InvalidSpecException;

    /**
     * Kills the session's whole tree: {@code signal} once, KILL after {@code grace}, then a sweep by
     * tag. The future fails with {@link IllegalArgumentException} when no such session is known.
     */
    CompletableFuture<KillReport> kill(String id, Signal signal, Duration grace);

    /** Kills every running session and waits until each has ended. */
    void killAll(Duration grace);

    /** One signal to the session's process group, without ending it; false when not sent (or no such session). */
    boolean signal(String id, Signal signal);

    /** One signal to one process of the session (or its subtree); returns the pids signalled. */
    List<Long> signalProcess(String id, long pid, Signal signal, boolean subtree);

    /** The running session's stdin; null when it cannot take input (or no such session). */
    OutputStream stdin(String id);

    /** CPU, memory, process tree and watchdog findings from the last pass over /proc; null when unknown. */
    SessionInsight insight(String id);

    /**
     * Removes a finished session from the list and the store, its files with it (its artifact too when
     * asked); returns the bytes deleted. An id no longer known is already gone: nothing happens (0).
     */
    long remove(String id, boolean withArtifact) throws IOException;

    /** Removes every finished session and its artifacts; returns how many. */
    int clearFinished() throws IOException;

    /**
     * Starts the named commands and groups of a workspace file (none: its autostart ones) with
     * their dependencies, as {@code runboard up} does: the supervisor then keeps their order,
     * readiness, restarts and queues. Returns the session ids.
     */
    default List<String> up(Path file, List<String> names) throws IOException {
        return up(file, names, false);
    }

    /**
     * As {@link #up(Path, List)}; with {@code force}, a named command that already ended runs again
     * (one that runs is never started twice). The window's ▶, Run group and Run all force what they name.
     */
    default List<String> up(Path file, List<String> names, boolean force) throws IOException {
        throw new UnsupportedOperationException("stacks need the supervisor");
    }

    /** Stops what {@link #up} started from the file, dependants first, as {@code runboard down}; the names stopped. */
    default List<String> down(Path file, List<String> names) throws IOException {
        throw new UnsupportedOperationException("stacks need the supervisor");
    }

    @Override
    void close();
}
