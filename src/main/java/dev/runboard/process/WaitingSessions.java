package dev.runboard.process;

import dev.runboard.session.OutputPreview;
import dev.runboard.session.Session;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.session.StackLink;
import dev.runboard.store.SessionLock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions that exist before their command runs (issue #17): {@code pending} or {@code queued},
 * with a record and a reason from the moment they are made, so every client (and {@code list})
 * sees what waits and why. The engine holds each one's lock while it waits, as for a running one:
 * a supervisor that dies leaves them to the next, which records them {@code skipped}. Only the
 * orchestration ({@code dev.runboard.stack}) decides when one starts; this only makes, updates,
 * launches and ends them.
 */
public final class WaitingSessions {
    private final SessionEngine engine;
    /** The lock of each session still waiting: taken back by exactly one launch or end. */
    private final Map<String, SessionLock> locks = new ConcurrentHashMap<>();

    WaitingSessions(SessionEngine engine) {
        this.engine = engine;
    }

    /** Makes a waiting session: its folder, record and lock; nothing runs. */
    public Session create(SessionSpec spec, StackLink link, SessionStatus status, String reason) {
        spec.validate();
        if (spec.isRemote()) {
            engine.remote().prepare(spec.host()); // an unreachable host is refused before anything is created
        }
        SessionEngine.Folder folder = engine.createFolder(spec);
        Session session = Session.waiting(folder.id(), spec, folder.capture(), engine.config().clock(), link, status, reason);
        locks.put(session.id(), folder.lock());
        engine.save(session);
        engine.add(session);
        return session;
    }

    /** A session that runs at once but takes part in a stack (its readiness, its place in a restart chain). */
    public Session start(SessionSpec spec, StackLink link, Map<String, String> baseEnv) {
        Session session = create(spec, link, SessionStatus.PENDING, "starting");
        return launch(session, baseEnv);
    }

    /** Whether this engine holds the session waiting. */
    public boolean holds(Session session) {
        return locks.containsKey(session.id());
    }

    /** Changes why it waits; the record says so at once. False once it started or ended. */
    public boolean update(Session session, SessionStatus status, String reason) {
        if (!holds(session) || (session.status() == status && reason.equals(session.waitingReason()))) {
            return false;
        }
        if (session.waitFor(status, reason)) {
            engine.save(session);
            return true;
        }
        return false;
    }

    /** Starts the command of a waiting session (a launch the OS refuses ends it {@code failed}, as for any start). */
    public Session launch(Session session, Map<String, String> baseEnv) {
        SessionLock lock = locks.remove(session.id());
        return lock == null ? session : engine.launch(session, lock, baseEnv, false);
    }

    /**
     * Ends a session that never ran: {@code skipped} (a dependency can no longer be met) or
     * {@code killed} (a person or {@code down} stopped it first). False when it was not waiting here.
     */
    public boolean end(Session session, SessionStatus status, String reason) {
        SessionLock lock = locks.remove(session.id());
        if (lock == null) {
            return false;
        }
        endUnstarted(session, lock, new SessionOutcome(status, engine.config().clock().instant(), null, null,
                reason, OutputPreview.noteOnly(reason), null, null, null, null));
        return true;
    }

    /** Ends a session that never ran, its record final (the room set aside for it freed), then tells listeners. */
    void endUnstarted(Session session, SessionLock lock, SessionOutcome outcome) {
        session.end(outcome);
        engine.save(session);
        engine.finisher().tidy(session);
        lock.close();
        session.announce();
    }

    /** Ends a running session as {@code failed} with the reason (an unhealthy one about to be restarted): TERM, then KILL after its grace. */
    public void fail(Session session, String reason) {
        engine.endAs(session, Signal.TERM, SessionStatus.FAILED, reason);
    }

    /** Records a session's readiness and any event about it (a probe's finding, a restart). */
    public void note(Session session, Boolean ready, dev.runboard.session.SessionEvent event) {
        session.noteReadiness(ready, event);
        engine.save(session);
    }
}
