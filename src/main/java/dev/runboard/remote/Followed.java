package dev.runboard.remote;

import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A session being followed: its stand-in process, its local mirror and where its exit status goes. With no
 * process it is {@link #ownedElsewhere()}: only mirrored here, ended by another target.
 */
record Followed(Session session, RemoteProcess process, Mirror mirror, Path exitStatusFile, long pid, long startTicks,
                java.util.concurrent.atomic.AtomicLong hostBytes) {
    Followed(Session session, RemoteProcess process, Mirror mirror, Path exitStatusFile, long pid, long startTicks) {
        this(session, process, mirror, exitStatusFile, pid, startTicks, new java.util.concurrent.atomic.AtomicLong(-1));
    }

    /** Whether another target owns the session's end ({@link HostLink#mirror}): no pid here, no stand-in to end. */
    boolean ownedElsewhere() {
        return process == null;
    }

    void looked() {
        if (process != null) {
            process.looked();
        }
    }

    /** The output's size on the host at the last poll (-1 before the first). */
    long hostSize() {
        return hostBytes.get();
    }

    /** The command ended with the wrapper's {@code status}; or, when null, {@code lost} says why nobody knows how. */
    void finish(String status, String lost) {
        mirror.close();
        if (status != null) {
            try {
                Path tmp = exitStatusFile.resolveSibling(exitStatusFile.getFileName() + ".remote");
                java.nio.file.Files.writeString(tmp, status, StandardCharsets.UTF_8);
                java.nio.file.Files.move(tmp, exitStatusFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                Logger.getLogger(Followed.class.getName()).log(Level.WARNING, "could not record the exit status of " + session.id(), e);
            }
        }
        session.connection(null);
        if (ownedElsewhere()) {
            return; // its owner reads the status file and ends it
        }
        if (status == null) {
            // Before the stand-in exits: the engine finishes the session as soon as it does.
            session.requestEnd(SessionStatus.UNKNOWN, lost);
            process.endedWithStatusLost();
        } else {
            process.ended(status);
        }
    }
}
