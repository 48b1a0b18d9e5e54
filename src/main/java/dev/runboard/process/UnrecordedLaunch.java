package dev.runboard.process;

import dev.runboard.session.RawPaths;
import dev.runboard.session.Session;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionSpec;
import dev.runboard.store.EarlySpec;
import dev.runboard.store.SessionLock;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A command bin/runboard launched early whose client died before it wrote the session's record (a
 * Ctrl-C in the JVM's first milliseconds, a JVM that could not start, a kill): the wrapper ends the
 * command and keeps the folder, and the data dir's owner records the session here, from its
 * {@link EarlySpec} and what the wrapper wrote, through the one path that finishes every session.
 * Never a folder nobody accounts for, never a second writer: it waits while the client lives (it
 * records the session itself) and while the wrapper is still ending the command, and takes the lock.
 */
final class UnrecordedLaunch {
    /** Why exec refused a command it found already started (a check that failed after the launch), when it could say. */
    static final String REFUSED = "early.refused";

    private final SessionEngine engine;
    private final SessionStore store;

    UnrecordedLaunch(SessionEngine engine) {
        this.engine = engine;
        this.store = engine.store();
    }

    /** Records folder {@code id} if it is such a launch and its time has come; whether it did. */
    boolean recordIfAbandoned(String id) {
        Path folder = store.dirOf(id);
        Optional<EarlySpec> early = EarlySpec.read(folder);
        if (early.isEmpty() || Files.exists(store.file(id, SessionStore.RECORD))) {
            return false;
        }
        EarlySpec e = early.get();
        if (engine.os().isAlive(e.clientPid()) || wrapperAtWork(id)) {
            return false; // its client records it; or the wrapper is still ending the command: a later pass
        }
        Optional<SessionLock> lock;
        try {
            lock = SessionLock.tryAcquire(store.file(id, SessionStore.LOCK));
        } catch (IOException failure) {
            return false;
        }
        if (lock.isEmpty()) {
            return false;
        }
        SessionSpec spec = SessionSpec.shell(e.command()).shell(Path.of(e.shell())).cwd(RawPaths.path(e.cwd())).build();
        Session s = new Session(id, spec, store.file(id, SessionStore.CAPTURE), engine.config().clock());
        Optional<WrappedCommand> command = WrappedCommand.read(store.file(id, SessionStore.COMMAND));
        s.started(command.map(WrappedCommand::pid).orElse(0L), command.map(WrappedCommand::startTicks).orElse(0L),
                e.launchedAt());
        String refused = refusal(id);
        s.recordEvent(new SessionEvent(engine.config().clock().instant(), SessionEvent.SUPERVISOR, (refused != null
                ? "exec refused the session after its command had started (" + refused + ")"
                : "its client (pid " + e.clientPid() + ", bin/runboard exec) ended before it recorded the session")
                + ": the wrapper stopped the command, and runboard recorded it from what the session's folder held"));
        engine.add(s);
        engine.manage(s, null, lock.get(), null);
        engine.onExit(s, Optional.empty());
        return true;
    }

    private String refusal(String id) {
        try {
            String why = Files.readString(store.file(id, REFUSED)).strip();
            Files.deleteIfExists(store.file(id, REFUSED));
            return why.isEmpty() ? null : why;
        } catch (IOException | RuntimeException none) {
            return null;
        }
    }

    /** Whether the wrapper has not written the status yet and still lives (a process carries the session's tag). */
    private boolean wrapperAtWork(String id) {
        if (Files.exists(store.file(id, SessionStore.EXIT_STATUS))) {
            return false;
        }
        return !engine.os().carrying(Session.TAG_VARIABLE + "=" + id).isEmpty();
    }
}
