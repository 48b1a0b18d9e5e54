package dev.runboard.process;

import dev.runboard.session.KillReport;
import dev.runboard.session.ProcessRef;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends a session's whole process tree and proves it: signal the group once, wait up to the grace,
 * SIGKILL the group, sweep the process table for processes carrying the session's env tag (which
 * catches daemons that left the group with {@code setsid}), and report any survivor.
 *
 * <p>Liveness comes from the process table's state: a zombie has ended even though
 * {@code ProcessHandle.isAlive()} says otherwise. Members are listed before anything is signalled,
 * because orphans re-parent and drop out of the tree.
 */
public final class ProcessTreeKiller {
    private static final long POLL_NANOS = Duration.ofMillis(10).toNanos();
    /** How long the sweep keeps killing newly found tagged processes (fork loops) before it reports survivors. */
    private static final Duration SWEEP_LIMIT = Duration.ofSeconds(3);

    private final OsProcesses os;
    private final Clock clock;

    public ProcessTreeKiller(OsProcesses os, Clock clock) {
        this.os = os;
        this.clock = clock;
    }

    /** What identifies one session's processes: its group (the leader's pid) and its env tag. */
    public record Target(long leaderPid, String tag) {
    }

    public KillReport kill(Target target, Signal signal, Duration grace, String reason) {
        Instant requestedAt = clock.instant();
        long pgid = target.leaderPid();
        Set<Long> self = selfAndAncestors();

        Found before = find(target, self);
        List<ProcessRef> signalled = describe(before.pids());
        os.signalGroup(pgid, signal);
        for (long pid : before.outsideGroup(pgid)) {
            os.signal(pid, signal); // once: repeated TERMs re-run handlers that fork
        }

        boolean escalated = false;
        List<ProcessRef> killedAfterGrace = List.of();
        if (signal != Signal.KILL) {
            long deadline = System.nanoTime() + grace.toNanos();
            while (!find(target, self).pids().isEmpty() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
        Set<Long> left = find(target, self).pids();
        if (!left.isEmpty() && signal != Signal.KILL) {
            escalated = true;
            killedAfterGrace = describe(left);
        }
        os.signalGroup(pgid, Signal.KILL);
        List<ProcessRef> swept = sweep(target, self);
        List<ProcessRef> survivors = describe(find(target, self).pids());
        return new KillReport(reason, signal.name(), grace.toMillis(), requestedAt, pgid, signalled, escalated,
                killedAfterGrace, swept, clock.instant(), survivors);
    }

    /** SIGKILLs whatever still lives in the group or carries the tag, until nothing new turns up. */
    private List<ProcessRef> sweep(Target target, Set<Long> self) {
        List<ProcessRef> swept = new ArrayList<>();
        Set<Long> seen = new LinkedHashSet<>();
        long deadline = System.nanoTime() + SWEEP_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            Set<Long> alive = find(target, self).pids();
            if (alive.isEmpty()) {
                break;
            }
            os.signalGroup(target.leaderPid(), Signal.KILL);
            for (long pid : alive) {
                if (seen.add(pid)) {
                    swept.add(new ProcessRef(pid, os.commandLine(pid)));
                }
                os.signal(pid, Signal.KILL);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        return swept;
    }

    /** The live processes of a session found in one pass over the process table. */
    private record Found(ProcessTable table, Set<Long> pids) {
        Set<Long> outsideGroup(long pgid) {
            Set<Long> out = new LinkedHashSet<>();
            for (long pid : pids) {
                if (table.get(pid).map(p -> p.pgid() != pgid).orElse(false)) {
                    out.add(pid);
                }
            }
            return out;
        }
    }

    /** Live processes of the session: its group, the leader's descendants, and anything carrying its tag. */
    private Found find(Target target, Set<Long> self) {
        ProcessTable table = os.snapshot();
        Set<Long> out = new LinkedHashSet<>();
        for (ProcInfo p : table.aliveInGroup(target.leaderPid())) {
            out.add(p.pid());
        }
        if (table.isAlive(target.leaderPid())) {
            out.add(target.leaderPid());
        }
        for (long pid : table.descendantsOf(target.leaderPid())) {
            if (table.isAlive(pid)) {
                out.add(pid);
            }
        }
        for (ProcInfo p : table.all()) {
            if (p.alive() && !out.contains(p.pid()) && !self.contains(p.pid()) && os.hasEnvEntry(p.pid(), target.tag())) {
                out.add(p.pid());
            }
        }
        out.removeAll(self);
        return new Found(table, out);
    }

    private List<ProcessRef> describe(Set<Long> pids) {
        return pids.stream().map(pid -> new ProcessRef(pid, os.commandLine(pid))).toList();
    }

    /** Never signal runboard itself or what started it, whatever their environment says. */
    private static Set<Long> selfAndAncestors() {
        Set<Long> out = new LinkedHashSet<>();
        ProcessHandle h = ProcessHandle.current();
        out.add(h.pid());
        for (var p = h.parent(); p.isPresent(); p = p.get().parent()) {
            out.add(p.get().pid());
        }
        out.add(1L);
        return out;
    }
}
