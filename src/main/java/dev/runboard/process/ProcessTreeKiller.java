package dev.runboard.process;

import dev.runboard.process.OsProcesses.Delivery;
import dev.runboard.session.KillReport;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.Session;
import dev.runboard.session.Signal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends a session's whole process tree and proves it: signal the group once (and the session's
 * processes outside it), wait up to the grace, SIGKILL every process of the session still alive,
 * sweep the process table until a pass finds none, and report what is left.
 *
 * <p>A process is the session's when it is in the session's group, descends from its leader,
 * carries the session's env tag (which catches daemons that left the group with {@code setsid}),
 * was seen as one of these since the kill began (the tree before the kill: an orphan re-parents and
 * drops out of the leader's tree, and may have cleared its environment), or descends from one of
 * them. Each is remembered by pid and start time, so a pid reused during the grace names a
 * stranger, not a member.
 *
 * <p>Exact, and nothing else: the group is signalled only while its leader is still the session's
 * process (pid and start time, checked right before each group signal); when the leader's pid names
 * another process, its group and descendants are that process's and are left alone, and the report
 * says so. Each process is signalled only if it still has the start time it was seen with and
 * belongs to runboard's own user ({@link OsProcesses#isOurs}), even when runboard runs as root.
 *
 * <p>Liveness comes from the process table's state: a zombie has ended even though
 * {@code ProcessHandle.isAlive()} says otherwise. Members are listed before anything is signalled,
 * because orphans re-parent and drop out of the tree. Full passes over /proc are the cost of a
 * kill, so the grace wait watches the members it already knows and makes a full pass only when
 * they have all gone (to catch anything forked meanwhile).
 */
public final class ProcessTreeKiller {
    private static final long POLL_NANOS = Duration.ofMillis(10).toNanos();
    /** How long the sweep keeps killing newly found processes (fork loops) before it reports survivors. */
    private static final Duration SWEEP_LIMIT = Duration.ofSeconds(3);

    private final OsProcesses os;
    private final Clock clock;

    public ProcessTreeKiller(OsProcesses os, Clock clock) {
        this.os = os;
        this.clock = clock;
    }

    /**
     * What identifies one session's processes: its group (the leader's pid), its env tag, and the
     * leader's start time in clock ticks. The pid and start time together name the leader for good:
     * when the pid names a process with another start time (or none is known: 0, on Linux), the
     * group is not the session's and is never signalled. No process older than the leader can carry
     * the tag, so only younger ones need their environment read.
     */
    public record Target(long leaderPid, String tag, long leaderStartTicks) {
        public static Target of(Session session) {
            return new Target(session.pid(), session.tag(), session.pidStartTicks());
        }
    }

    public KillReport kill(Target target, Signal signal, Duration grace, String reason) {
        Instant requestedAt = clock.instant();
        Kill kill = new Kill(target);

        Found before = kill.find();
        List<ProcessRef> signalled = describe(before.ours().keySet());
        kill.send(before, signal); // once: repeated TERMs re-run handlers that fork
        if (signal != Signal.KILL && signal != Signal.STOP && signal != Signal.CONT) {
            // A paused (stopped) tree acts on TERM only once continued, as systemd does after its SIGTERM.
            kill.send(before, Signal.CONT);
        }

        boolean escalated = false;
        List<ProcessRef> killedAfterGrace = List.of();
        if (signal == Signal.KILL) {
            kill.killed.addAll(before.ours().keySet());
        } else if (!awaitGrace(kill, before.ours(), grace).isEmpty()) {
            // The tree as it is now, descendants included, before anything dies and re-parents.
            Found left = kill.find();
            escalated = !left.ours().isEmpty();
            killedAfterGrace = describe(left.ours().keySet());
            kill.send(left, Signal.KILL);
            kill.killed.addAll(left.ours().keySet());
        }
        Sweep sweep = sweep(kill);
        List<ProcessRef> survivors = describe(sweep.last().all());
        return new KillReport(reason, signal.name(), grace.toMillis(), requestedAt, target.leaderPid(), signalled,
                escalated, killedAfterGrace, sweep.escaped(), clock.instant(), survivors,
                List.copyOf(kill.notOurs.values()), List.copyOf(kill.notes));
    }

    /** Waits until the session has no live process of ours or the grace runs out; returns what is still alive. */
    private Map<Long, Long> awaitGrace(Kill kill, Map<Long, Long> known, Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        Map<Long, Long> watching = new LinkedHashMap<>(known);
        while (System.nanoTime() < deadline) {
            if (!dropDeadUntilLive(watching)) {
                // Everything we knew of is gone; one full pass catches what was forked meanwhile.
                watching.putAll(kill.find().ours());
                if (watching.isEmpty()) {
                    return watching;
                }
            }
            LockSupport.parkNanos(Math.min(POLL_NANOS, Math.max(0, deadline - System.nanoTime())));
        }
        watching.entrySet().removeIf(e -> !os.isAlive(e.getKey(), e.getValue()));
        return watching;
    }

    /** Drops ended members from the end of the list and stops at the first live one: a settled wait costs one read a tick. */
    private boolean dropDeadUntilLive(Map<Long, Long> watching) {
        List<Map.Entry<Long, Long>> entries = new ArrayList<>(watching.entrySet());
        for (int i = entries.size() - 1; i >= 0; i--) {
            Map.Entry<Long, Long> e = entries.get(i);
            if (os.isAlive(e.getKey(), e.getValue())) {
                return true;
            }
            watching.remove(e.getKey());
        }
        return false;
    }

    /** What the sweep killed that had left the group, and its last pass (empty of ours unless it gave up). */
    private record Sweep(List<ProcessRef> escaped, Found last) {
    }

    /** SIGKILLs whatever of the session still lives, until a full pass finds none of ours (or the limit passes). */
    private Sweep sweep(Kill kill) {
        List<ProcessRef> escaped = new ArrayList<>();
        long deadline = System.nanoTime() + SWEEP_LIMIT.toNanos();
        Found found = kill.find();
        while (!found.ours().isEmpty() && System.nanoTime() < deadline) {
            kill.send(found, Signal.KILL);
            for (long pid : found.ours().keySet()) {
                if (!found.inGroup(pid) && kill.killed.add(pid)) {
                    escaped.add(new ProcessRef(pid, os.commandLine(pid)));
                }
            }
            kill.killed.addAll(found.ours().keySet());
            LockSupport.parkNanos(POLL_NANOS);
            found = kill.find();
        }
        return new Sweep(escaped, found);
    }

    /**
     * The live processes of a session found in one pass over the process table, by pid with their
     * start times: those runboard may signal, and those of another user it leaves alone.
     */
    private record Found(ProcessTable table, long pgid, Map<Long, Long> ours, Map<Long, Long> others) {
        boolean inGroup(long pid) {
            return table.get(pid).map(p -> p.pgid() == pgid).orElse(false);
        }

        Set<Long> all() {
            Set<Long> out = new LinkedHashSet<>(ours.keySet());
            out.addAll(others.keySet());
            return out;
        }
    }

    /** How the process at the leader's pid relates to the session's leader. */
    private enum Leader { SAME, GONE, REUSED }

    /** One kill's state: what it has seen, what it has killed, what it left alone and why. */
    private final class Kill {
        final Target target;
        final Set<Long> self = selfAndAncestors();
        /** Every process of the session seen since the kill began (pid to start time). */
        final Map<Long, Long> known = new LinkedHashMap<>();
        /** Whether each process seen (pid and start time) is runboard's own: read once per kill. */
        final Map<List<Long>, Boolean> owned = new HashMap<>();
        /** Pids sent SIGKILL (so the sweep lists an escaped process once). */
        final Set<Long> killed = new LinkedHashSet<>();
        final Map<Long, ProcessRef> notOurs = new LinkedHashMap<>();
        final Set<String> notes = new LinkedHashSet<>();

        Kill(Target target) {
            this.target = target;
        }

        /** Live processes of the session, found in one pass (see the class comment for which). */
        Found find() {
            ProcessTable table = os.snapshot();
            long leaderPid = target.leaderPid();
            Set<Long> found = new LinkedHashSet<>();
            Leader leader = leader(table);
            if (leader == Leader.SAME) {
                found.add(leaderPid); // its descendants join below, with everyone else's
                table.aliveInGroup(leaderPid).forEach(p -> found.add(p.pid()));
            } else if (leader == Leader.GONE) {
                // The group outlives its leader while members remain, and its number cannot be
                // handed out again until they have all gone: its members are still the session's.
                table.aliveInGroup(leaderPid).stream().filter(p -> p.startTicks() >= target.leaderStartTicks())
                        .forEach(p -> found.add(p.pid()));
            } else {
                notes.add("process group " + leaderPid + " was left alone: pid " + leaderPid
                        + " now names another process, not the session's leader");
            }
            for (Map.Entry<Long, Long> k : known.entrySet()) {
                if (table.get(k.getKey()).map(p -> p.startTicks() == k.getValue()).orElse(false)) {
                    found.add(k.getKey());
                }
            }
            for (ProcInfo p : table.all()) {
                if (p.alive() && p.startTicks() >= target.leaderStartTicks() && !found.contains(p.pid())
                        && !self.contains(p.pid()) && os.hasEnvEntry(p.pid(), target.tag())) {
                    found.add(p.pid());
                }
            }
            found.addAll(table.descendantsOf(new ArrayList<>(found)));
            found.removeAll(self);

            Map<Long, Long> ours = new LinkedHashMap<>();
            Map<Long, Long> others = new LinkedHashMap<>();
            for (long pid : found) {
                ProcInfo p = table.get(pid).orElse(null);
                if (p == null || !p.alive()) {
                    continue;
                }
                known.putIfAbsent(pid, p.startTicks());
                if (owned.computeIfAbsent(List.of(pid, p.startTicks()), k -> os.isOurs(pid))) {
                    ours.put(pid, p.startTicks());
                } else {
                    others.put(pid, p.startTicks());
                    notOurs.computeIfAbsent(pid, k -> new ProcessRef(pid, os.commandLine(pid)));
                }
            }
            return new Found(table, leaderPid, ours, others);
        }

        private Leader leader(ProcessTable table) {
            return table.get(target.leaderPid())
                    .map(p -> p.startTicks() == target.leaderStartTicks() ? Leader.SAME : Leader.REUSED)
                    .orElse(Leader.GONE);
        }

        /**
         * Sends the signal once to the group, if its leader is still the session's (checked right
         * before), and to each process of ours the group signal did not reach, each only if it
         * still has the start time it was found with.
         */
        void send(Found found, Signal signal) {
            Delivery group = os.signalGroup(target.leaderPid(), target.leaderStartTicks(), signal);
            if (group == Delivery.REUSED) {
                notes.add("process group " + target.leaderPid() + " was left alone: pid " + target.leaderPid()
                        + " now names another process, not the session's leader");
            }
            for (Map.Entry<Long, Long> m : found.ours().entrySet()) {
                if (group == Delivery.SENT && found.inGroup(m.getKey())) {
                    continue;
                }
                if (os.signal(m.getKey(), m.getValue(), signal) == Delivery.NOT_OURS) {
                    long pid = m.getKey();
                    notOurs.computeIfAbsent(pid, k -> new ProcessRef(pid, os.commandLine(pid)));
                }
            }
        }
    }

    private List<ProcessRef> describe(Collection<Long> pids) {
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
