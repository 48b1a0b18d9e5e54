package dev.runboard.process;

import dev.runboard.session.Session;
import dev.runboard.session.SessionEvent;
import dev.runboard.store.SessionStore;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * What an owner knows of its local sessions' wrappers (docs/PROCESS-TREE.md): when a session's end
 * is due (the wrapper wrote the status, though it may stay on for processes the command left
 * behind; or the wrapper is gone) and what to do when a wrapper died while its command runs on:
 * the session stays running, its command is watched by pid and start time, and its deadline is
 * held by the owner to the millisecond ({@code onLost}); its status is then unknown.
 */
final class WrapperWatch {
    static final String LOST_REASON = "its exit status was lost with its wrapper, which was killed while the command ran";

    private final SessionStore store;
    private final OsProcesses os;
    private final Clock clock;
    private final Consumer<Session> onLost;
    /** Sessions whose wrapper died while their command ran on. */
    private final Set<String> lost = ConcurrentHashMap.newKeySet();

    /** @param onLost told once per session whose wrapper is found dead while its command runs (after the event is recorded) */
    WrapperWatch(SessionStore store, OsProcesses os, Clock clock, Consumer<Session> onLost) {
        this.store = store;
        this.os = os;
        this.clock = clock;
        this.onLost = onLost;
    }

    /** The process group of the session's command (its own, below the wrapper); the wrapper's for an older wrapper. */
    long commandGroup(Session session) {
        return WrappedCommand.groupOf(store, session);
    }

    /**
     * Whether the session's end is due: its wrapper wrote the status, its wrapper is gone (adopted:
     * not our child, so polled), or, once its wrapper died, its command has ended.
     */
    boolean endIsDue(Session session, boolean adopted) {
        if (session.spec().pty() && !adopted) {
            // Its terminal's holder (script, our child) copies the last output after the wrapper's end and
            // exits then: its exit is the end, or output still in the terminal would be lost.
            return false;
        }
        if (Files.exists(store.file(session.id(), SessionStore.EXIT_STATUS))) {
            return true;
        }
        if (lost.contains(session.id())) {
            return !command(session).map(c -> c.alive(os)).orElse(false);
        }
        return adopted && !os.isAlive(session.pid(), session.pidStartTicks());
    }

    /**
     * Looks at a local session whose wrapper has ended: true when it ended without a status while its
     * command runs on (the session stays running), false when the session's end can be recorded now.
     */
    boolean stillRunning(Session session) {
        if (session.spec().isRemote() || Files.exists(store.file(session.id(), SessionStore.EXIT_STATUS))) {
            return false;
        }
        Optional<WrappedCommand> command = command(session);
        if (command.isEmpty() || !command.get().alive(os)) {
            return false;
        }
        if (lost.add(session.id())) {
            session.recordEvent(new SessionEvent(clock.instant(), SessionEvent.KILL, "the session's wrapper (pid " + session.pid()
                    + ") ended while its command (pid " + command.get().pid() + ") runs on: runboard watches the command and"
                    + " holds its deadline; its exit status will be unknown"));
            onLost.accept(session);
        }
        return true;
    }

    /** Why the session's status is unknown when its wrapper was lost, or null; forgets the session. */
    String unknownReason(Session session) {
        return lost.remove(session.id()) ? LOST_REASON : null;
    }

    private Optional<WrappedCommand> command(Session session) {
        return WrappedCommand.read(store.file(session.id(), SessionStore.COMMAND));
    }
}
