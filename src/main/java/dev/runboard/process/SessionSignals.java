package dev.runboard.process;

import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.session.Session;
import dev.runboard.session.Signal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Signals that do not end a session: one to its whole process group (pause, resume, reload), or one
 * to a single process or subtree that the user picked in the window. Each target is checked right
 * before it is signalled — the group's leader against its start time, a picked pid against a fresh
 * pass over /proc — so a pid the system has since given to another process is left alone.
 */
final class SessionSignals {
    private final OsProcesses os;
    private final SessionMonitor monitor;
    private final Supplier<RemoteSessions> remote;
    private final java.util.function.ToLongFunction<Session> commandGroup;

    /** @param commandGroup the session's command's process group (its own, below the wrapper) */
    SessionSignals(OsProcesses os, SessionMonitor monitor, Supplier<RemoteSessions> remote,
                   java.util.function.ToLongFunction<Session> commandGroup) {
        this.os = os;
        this.monitor = monitor;
        this.remote = remote;
        this.commandGroup = commandGroup;
    }

    /**
     * Sends one signal to the session's command's process group (below the wrapper, which goes on
     * holding the tree and the deadline); false when it has no running group to send it to.
     */
    boolean toGroup(Session session, Signal signal) {
        Long pid = session.pid();
        boolean sent;
        if (session.spec().isRemote()) {
            // Sent where the command runs (its host's helper, or a Slurm job's wrapper on its node).
            sent = pid != null && !session.status().isTerminal() && remote.get().signal(session, signal);
        } else {
            // The group, while the wrapper that made it lives: its pid cannot name another group before the
            // wrapper has reaped the command, and a wrapper gone leaves the group to the kill's sweep.
            sent = pid != null && !session.status().isTerminal() && os.isAlive(pid, session.pidStartTicks())
                    && os.signalGroup(commandGroup.applyAsLong(session), signal);
        }
        if (sent) {
            markPaused(session, signal, monitor);
        }
        return sent;
    }

    /** STOP pauses, CONT resumes: the status says so at once, before the monitor's next look at /proc confirms it. */
    static void markPaused(Session session, Signal sent, SessionMonitor monitor) {
        if (sent == Signal.STOP || sent == Signal.CONT) {
            session.markPaused(sent == Signal.STOP);
            monitor.pausedBySignal(session);
        }
    }

    /**
     * Sends a signal to one process of the session, or to it and everything below it in the
     * session's tree. Refuses pids that are not the session's. Returns the pids signalled.
     */
    List<Long> toProcess(Session session, long pid, Signal signal, boolean subtree) {
        if (session.pid() == null || session.status().isTerminal()) {
            return List.of();
        }
        if (session.spec().isRemote()) {
            throw new IllegalArgumentException("session " + session.id() + " runs on " + session.spec().host()
                    + ": signal its whole group instead (one process of a remote tree is not supported yet)");
        }
        ProcessTreeSnapshot tree = new ResourceSampler(Session.TAG_VARIABLE)
                .sample(List.of(new ResourceSampler.Target(session.id(), session.pid())))
                .bySession().get(session.id()).tree();
        if (!tree.pids().contains(pid)) {
            throw new IllegalArgumentException("pid " + pid + " is not a process of session " + session.id());
        }
        // Parents first, so a parent cannot fork a replacement for a child just ended.
        List<Long> done = new ArrayList<>();
        for (long p : subtree ? tree.subtree(pid) : List.of(pid)) {
            if (os.signal(p, signal)) {
                done.add(p);
            }
        }
        return done;
    }
}
