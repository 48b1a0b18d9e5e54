package dev.runboard.process;

import dev.runboard.session.Session;
import dev.runboard.store.SessionLock;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;

/**
 * The sessions an engine manages, and what managing one holds until it ends: the lock that says
 * so, the live tail, the deadline and, for the engine's own child, the process (its stdin a pipe
 * kept open for input). Sessions not in here are followed read-only.
 */
final class ManagedSessions {
    private final Map<String, Managed> managed = new ConcurrentHashMap<>();

    /**
     * A session this engine manages: it holds the lock, enforces the deadline and finishes it.
     * {@code process} is null for a session adopted from a runboard that died (not our child).
     */
    record Managed(Process process, CaptureTail tail, ScheduledFuture<?> deadline, SessionLock lock) {
    }

    void put(Session session, Managed m) {
        managed.put(session.id(), m);
    }

    boolean contains(Session session) {
        return managed.containsKey(session.id());
    }

    /** The session's stdin; null once it has ended or when it is not our child. */
    OutputStream stdin(Session session) {
        Managed m = managed.get(session.id());
        return m == null || m.process() == null ? null : m.process().getOutputStream();
    }

    /** Whether the session was adopted from a runboard that died (not our child). */
    boolean isAdopted(Session session) {
        Managed m = managed.get(session.id());
        return m != null && m.process() == null;
    }

    /** Puts a new deadline in place of the session's (cancelled): its wrapper, which held it, is gone. */
    void replaceDeadline(Session session, ScheduledFuture<?> deadline) {
        ScheduledFuture<?>[] replaced = new ScheduledFuture<?>[1];
        Managed m = managed.computeIfPresent(session.id(), (id, old) -> {
            replaced[0] = old.deadline();
            return new Managed(old.process(), old.tail(), deadline, old.lock());
        });
        if (replaced[0] != null) {
            replaced[0].cancel(false);
        }
        if (m == null && deadline != null) {
            deadline.cancel(false); // no longer managed here
        }
    }

    /**
     * Stops managing an ended session: closes its tail and stdin and cancels its deadline. Returns
     * its lock, for the caller to let go once the record is final; null if it was not managed here.
     */
    SessionLock release(Session session) {
        Managed m = managed.remove(session.id());
        if (m == null) {
            return null;
        }
        m.tail().close();
        if (m.deadline() != null) {
            m.deadline().cancel(false);
        }
        if (m.process() != null) {
            closeQuietly(m.process().getOutputStream());
        }
        return m.lock();
    }

    /** Lets go of every session (the engine is closing); their commands keep running. */
    void closeAll() {
        for (Managed m : managed.values()) {
            m.tail().close();
            m.lock().close();
        }
        managed.clear();
    }

    private static void closeQuietly(OutputStream out) {
        try {
            out.close();
        } catch (IOException ignored) {
            // the child is gone; a broken stdin pipe is expected
        }
    }
}
