package dev.runboard.process;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.Session;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Sessions whose command runs on another host ({@link dev.runboard.session.SessionSpec#host()}).
 * The engine owns them as it owns local ones (lock, record, finish); this seam does what differs:
 * the launch, following the remote command (its output mirrored into the local capture file, its
 * exit status copied into the session's exit-status file before its {@code Process} exits), and
 * the tree kill there. {@code dev.runboard.remote} implements it over OpenSSH; the engine needs no
 * ssh of its own, and without one a remote spec is refused before anything is created.
 */
public interface RemoteSessions extends AutoCloseable {

    /** A remote command just started: its stand-in process (exits when the command has and every byte is here). */
    record Launched(Process process, long pid, long startTicks) {
    }

    /**
     * A remote command's stand-in process. When its host lost the command's exit status (the
     * session's folder deleted, the wrapper killed with SIGKILL), it has recorded why with {@link
     * Session#requestEnd} ({@code unknown}) before exiting, and its exit value means nothing: the
     * session ends {@code unknown} with no exit code, never a made-up one.
     */
    interface StandIn {
        boolean exitStatusLost();

        /**
         * Waits at most {@code max} for the host's first answer about the command since it was
         * followed (a re-attach: it may have ended meanwhile); false when none came in time. A
         * stand-in that has nothing to ask looks at once.
         */
        default boolean awaitFirstLook(Duration max) {
            return true;
        }
    }

    /**
     * Makes sure the host can run a session now (reachable, logged in, perl there, room on its
     * disk), before the engine creates anything: a one-line {@link InvalidSpecException} naming
     * the host and what to do otherwise.
     */
    void prepare(String host) throws InvalidSpecException;

    /** As {@link #prepare(String)} for the spec's target (a Slurm target also asks sbatch whether it would take the job). */
    default void prepare(dev.runboard.session.SessionSpec spec) throws InvalidSpecException {
        prepare(spec.host());
    }

    /** Starts the session's command on its host; the capture file is the local mirror it fills. */
    Launched launch(Session session, Path exitStatusFile) throws IOException;

    /**
     * As {@link #launch(Session, Path)}, the command starting from {@code baseEnv} (the client's
     * environment; null: this process's), where the target carries one (a Slurm job does; an ssh
     * host gives its login's).
     */
    default Launched launch(Session session, Path exitStatusFile, java.util.Map<String, String> baseEnv) throws IOException {
        return launch(session, exitStatusFile);
    }

    /** Follows a session started by an earlier runboard from where its mirror ends (a restart re-attaching). */
    Process reattach(Session session, Path exitStatusFile);

    /** Ends the session's whole tree on its host: the wrapper's kill there (docs/PROCESS-TREE.md), {@code why} its request's status. */
    WrapperReport kill(Session session, Signal signal, Duration grace, dev.runboard.session.SessionStatus why, String reason);

    /** Sends one signal to the session's process group on its host. */
    boolean signal(Session session, Signal signal);

    /**
     * The session's CPU, memory and process tree on its host, as its host's poll last sampled them
     * (about once a second, with the output); null when not sampled yet.
     */
    default ResourceSampler.Usage usage(Session session) {
        return null;
    }

    /** Told when a session's connection changed (an event was recorded): the engine saves its record. */
    void onChange(Consumer<Session> listener);

    @Override
    void close();

    /** No remote hosts: a remote spec is refused. */
    RemoteSessions NONE = new UnreachableTarget("host", host -> "start sessions on other hosts (host " + host + ")",
            "remote sessions", session -> "runs on " + session.spec().host());
}
