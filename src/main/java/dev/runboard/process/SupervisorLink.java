package dev.runboard.process;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.KillReport;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * The commands a client sends to the one process that owns a data dir's sessions (the
 * supervisor). Ids are whole session ids. Every call may start the supervisor when none runs.
 */
public interface SupervisorLink {

    /**
     * Starts a session; its record is on disk when this returns. The command starts from this
     * process's environment (as if this process had started it), the spec's variables on top.
     */
    String start(SessionSpec spec) throws InvalidSpecException, IOException;

    /** Kills the session's tree and returns the report once the kill is done. */
    KillReport kill(String id, Signal signal, Duration grace) throws IOException;

    boolean signal(String id, Signal signal) throws IOException;

    List<Long> signalProcess(String id, long pid, Signal signal, boolean subtree) throws IOException;

    void stdin(String id, byte[] data) throws IOException;

    void closeStdin(String id) throws IOException;

    /** Removes a finished session and its files; the bytes deleted. */
    long remove(String id, boolean withArtifact) throws IOException;

    /** {@code runboard up}: starts the named commands (none: the autostart ones) of a workspace file with their dependencies; their session ids. */
    default List<String> up(java.nio.file.Path file, List<String> names, boolean force) throws IOException {
        throw new UnsupportedOperationException("this link starts no stacks");
    }

    /** {@code runboard down}: stops what up started from the file, dependants first; the names stopped. */
    default List<String> down(java.nio.file.Path file, List<String> names) throws IOException {
        throw new UnsupportedOperationException("this link stops no stacks");
    }

    /** The live usage of these running sessions as the supervisor samples them (remote ones: on their hosts); by id. */
    default java.util.Map<String, ResourceSampler.Usage> usage(List<String> ids) {
        return java.util.Map.of();
    }

    /** Makes sure a supervisor runs: it adopts the sessions whose owner died and records those that ended. */
    void ensureRunning() throws IOException;
}
