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
 * because orphans re-parent and drop out of the tree. Full passes over /proc are the cost of a
 * kill, so the grace wait watches the members it already knows and makes a full pass only when
 * they have all gone (to catch anything forked meanwhile).
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

    /**
     * What identifies one session's processes: its group (the leader's pid), its env tag, and the
     * leader's start time in clock ticks (0 if unknown). No process older than the leader can
     * carry the tag, so only younger ones need their environment read.
     */
    public record Target(long leaderPid, String tag, long leaderStartTicks) {
        public Target(long leaderPid, String tag) {
            this(leaderPid, tag, 0);
        }
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

        Set<Long> left = signal == Signal.KILL ? before.pids() : awaitGrace(target, self, before.pids(), grace);
        boolean escalated = signal != Signal.KILL && !left.isEmpty();
        List<ProcessRef> killedAfterGrace = escalated ? describe(left) : List.of();
        os.signalGroup(pgid, Signal.KILL);
        Sweep sweep = sweep(target, self);
        return new KillReport(reason, signal.name(), grace.toMillis(), requestedAt, pgid, signalled, escalated,
                killedAfterGrace, sweep.escaped(), clock.instant(), describe(sweep.survivors()));
    }

    /** Waits until the session has no live process or the grace runs out; returns what is still alive. */
    private Set<Long> awaitGrace(Target target, Set<Long> self, Set<Long> known, Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        Set<Long> watching = new LinkedHashSet<>(known);
        while (System.nanoTime() < deadline) {
            watching.removeIf(pid -> !os.isAlive(pid));
            if (watching.isEmpty()) {
                // Everything we knew of is gone; one full pass catches what was forked meanwhile.
                watching.addAll(find(target, self).pids());
                if (watching.isEmpty()) {
                    return watching;
                }
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        watching.removeIf(pid -> !os.isAlive(pid));
        return watching;
    }

    /** What the sweep killed that had left the group, and what it could not kill. */
    private record Sweep(List<ProcessRef> escaped, Set<Long> survivors) {
    }

    /** SIGKILLs whatever still lives in the group or carries the tag, until a full pass finds nothing. */
    private Sweep sweep(Target target, Set<Long> self) {
        List<ProcessRef> escaped = new ArrayList<>();
        Set<Long> seen = new LinkedHashSet<>();
        long deadline = System.nanoTime() + SWEEP_LIMIT.toNanos();
        Found found = find(target, self);
        while (!found.pids().isEmpty() && System.nanoTime() < deadline) {
            os.signalGroup(target.leaderPid(), Signal.KILL);
            for (long pid : found.outsideGroup(target.leaderPid())) {
                if (seen.add(pid)) {
                    escaped.add(new ProcessRef(pid, os.commandLine(pid)));
                }
                os.signal(pid, Signal.KILL);
            }
            LockSupport.parkNanos(POLL_NANOS);
            found = find(target, self);
        }
        return new Sweep(escaped, found.pids());
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
            if (p.alive() && p.startTicks() >= target.leaderStartTicks() && !out.contains(p.pid())
                    && !self.contains(p.pid()) && os.hasEnvEntry(p.pid(), target.tag())) {
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
