package dev.runboard.process;

import dev.runboard.session.ProcessRef;
import dev.runboard.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Ended local sessions whose wrapper still holds processes the command left behind: the status is
 * the command's, the wrapper reaps them and stays until the last has gone, and Kill on the ended
 * session still ends them. Their snapshot lists them ({@code lingering}), as one pass over /proc a
 * second finds them for all such sessions.
 */
final class LingeringWatch {
    private static final long PERIOD_MS = 1000;

    private final OsProcesses os;
    private final ScheduledExecutorService timers;
    private final Consumer<String> warn;
    private final Set<Session> watched = ConcurrentHashMap.newKeySet();
    private volatile boolean scheduled;

    /** The owner's engine and a window following the owner's records both watch, each its own sessions. */
    LingeringWatch(OsProcesses os, ScheduledExecutorService timers, Consumer<String> warn) {
        this.os = os;
        this.timers = timers;
        this.warn = warn;
    }

    /** Looks at a session that has just ended: if its wrapper holds processes, they are listed and watched. */
    void watch(Session session) {
        if (session.spec().isRemote() || session.pid() == null || !os.isAlive(session.pid(), session.pidStartTicks())) {
            return; // (one read of its wrapper's stat: a pass over /proc only for a wrapper still there)
        }
        List<ProcessRef> left = held(session, os.snapshot());
        session.lingering(left);
        if (left.isEmpty()) {
            return;
        }
        watched.add(session);
        if (!scheduled) {
            synchronized (this) {
                if (!scheduled) {
                    scheduled = true;
                    timers.scheduleWithFixedDelay(this::refreshQuietly, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
                }
            }
        }
    }

    /** Lists again what each watched session's wrapper holds (after a kill, say); drops those it no longer does. */
    void refresh() {
        if (watched.isEmpty()) {
            return;
        }
        ProcessTable table = os.snapshot();
        for (Session s : watched) {
            List<ProcessRef> left = held(s, table);
            s.lingering(left);
            if (left.isEmpty()) {
                watched.remove(s);
            }
        }
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            warn.accept("could not look at the processes ended sessions left behind: " + e);
        }
    }

    /** The live processes below the session's wrapper (its subreaper: nothing the command started escapes it). */
    private List<ProcessRef> held(Session s, ProcessTable table) {
        if (!os.isAlive(s.pid(), s.pidStartTicks())) {
            return List.of();
        }
        List<ProcessRef> out = new ArrayList<>();
        for (long pid : table.descendantsOf(s.pid())) {
            if (table.get(pid).map(ProcInfo::alive).orElse(false)) {
                out.add(new ProcessRef(pid, os.commandLine(pid)));
            }
        }
        out.sort(java.util.Comparator.comparingLong(ProcessRef::pid));
        return out;
    }
}
