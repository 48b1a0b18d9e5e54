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
    public Session create(SessionSpec given, StackLink link, SessionStatus status, String reason) {
        SessionSpec spec = engine.withDefaults(engine.marked(given).validate());
        if (spec.isRemote()) {
            engine.remote().prepare(spec); // an unreachable host, or a job Slurm would refuse, is refused before anything is created
        }
        SessionEngine.Folder folder = engine.createFolder(spec);
        if (link != null && link.shutdown() != null) {
            writeShutdown(folder.id(), link.shutdown());
        }
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

    /**
     * The {@code shutdown} file of the session's folder: the wrapper's one kill reads it whenever a kill
     * begins with TERM (a person's, {@code down}'s, the deadline's, with or without a runboard up) and
     * runs its command, or sends its signal, instead.
     */
    private void writeShutdown(String id, dev.runboard.session.ShutdownStep step) {
        java.nio.file.Path file = engine.store().file(id, SHUTDOWN_FILE);
        try {
            java.nio.file.Files.writeString(file, step.wrapperFile(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new dev.runboard.session.InvalidSpecException("data", "cannot write the shutdown step of session " + id + " ("
                    + file + "): " + e.getMessage());
        }
    }

    /**
     * {@code log_file}: the run's output at {@code target} too, as a hard link to its capture (a symbolic
     * link across file systems), so the bytes are the capture's own, live, with no second writer. Each
     * run replaces the link: the file holds the latest run. A link that cannot be made is an {@code output}
     * event on the session; the command runs on.
     */
    public void linkOutput(Session session, java.nio.file.Path target) {
        java.nio.file.Path capture = session.captureFile();
        try {
            java.nio.file.Path parent = target.toAbsolutePath().getParent();
            java.nio.file.Files.createDirectories(parent);
            java.nio.file.Path tmp = parent.resolve("." + target.getFileName() + ".runboard-" + session.id());
            java.nio.file.Files.deleteIfExists(tmp);
            try {
                java.nio.file.Files.createLink(tmp, capture);
            } catch (java.io.IOException | UnsupportedOperationException e) {
                java.nio.file.Files.createSymbolicLink(tmp, capture.toAbsolutePath());
            }
            java.nio.file.Files.move(tmp, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.io.IOException | RuntimeException e) {
            session.recordEvent(new dev.runboard.session.SessionEvent(engine.config().clock().instant(), "output",
                    "log_file " + target + ": cannot link the output there (" + e.getMessage() + ")"));
            engine.save(session);
        }
    }

    /** The file name the wrapper reads (runboard-wrap.pl's shutdown_step). */
    static final String SHUTDOWN_FILE = "shutdown";

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
