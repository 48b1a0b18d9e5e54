package dev.runboard.bench;

import dev.runboard.process.LinuxProcesses;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.process.ProcessTable;
import dev.runboard.session.Signal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A prototype (benchmark code, not the engine) of the tree kill with fewer full passes over /proc,
 * to measure the change suggested in docs/BENCHMARKS.md. Same protocol as the engine's
 * {@code ProcessTreeKiller}: list the members (group, descendants, env tag), signal once, wait up
 * to the grace, KILL the group, sweep by tag until nothing lives. The differences:
 * <ul>
 *   <li>the env tag is read only for processes that started no earlier than the session's leader
 *       (an older process cannot have inherited the tag);</li>
 *   <li>during the grace, liveness is checked on the members already listed, one {@code stat}
 *       read per member still alive (stopping at the first live one), not by a full pass plus an
 *       environ read of every process each 10 ms; a full pass is made only when all listed
 *       members are gone, to catch children forked since;</li>
 *   <li>the sweep's last empty pass is the verification: no extra passes after it.</li>
 * </ul>
 */
final class LeanTreeKill {
    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long SWEEP_PAUSE = TimeUnit.MILLISECONDS.toNanos(1);

    private LeanTreeKill() {
    }

    /** Returns the processes still alive after the sweep (empty when the kill is clean). */
    @SuppressWarnings("unused")
    static List<Long> kill(OsProcesses os, long leader, String tag, Signal signal, Duration grace) {
        long notBefore = LinuxProcesses.readStat(leader).map(ProcInfo::startTicks).orElse(0L);
        Map<Long, Long> members = find(os, leader, tag, notBefore); // pid -> start ticks (guards pid reuse)
        List<String> signalled = members.keySet().stream().map(os::commandLine).toList(); // the report's list, as the engine makes it
        os.signalGroup(leader, signal);
        signalOutsideGroup(os, members, leader, signal);
        if (signal != Signal.KILL && !grace.isZero()) {
            long deadline = System.nanoTime() + grace.toNanos();
            List<Map.Entry<Long, Long>> waiting = new ArrayList<>(members.entrySet());
            while (System.nanoTime() < deadline) {
                if (!anyAlive(waiting)) {
                    // Everyone listed is gone: one full pass, so children forked since (a TERM handler's) get their grace too.
                    waiting.addAll(find(os, leader, tag, notBefore).entrySet());
                    if (waiting.isEmpty()) {
                        break;
                    }
                }
                LockSupport.parkNanos(Math.min(TICK, Math.max(0, deadline - System.nanoTime())));
            }
        }
        os.signalGroup(leader, Signal.KILL);
        signalOutsideGroup(os, members, leader, Signal.KILL);
        long sweepDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (true) {
            Map<Long, Long> alive = find(os, leader, tag, notBefore);
            if (alive.isEmpty() || System.nanoTime() > sweepDeadline) {
                return List.copyOf(alive.keySet());
            }
            os.signalGroup(leader, Signal.KILL);
            for (long pid : alive.keySet()) {
                os.signal(pid, Signal.KILL);
            }
            LockSupport.parkNanos(SWEEP_PAUSE);
        }
    }

    private static void signalOutsideGroup(OsProcesses os, Map<Long, Long> members, long pgid, Signal signal) {
        for (long pid : members.keySet()) {
            Optional<ProcInfo> p = LinuxProcesses.readStat(pid);
            if (p.isPresent() && p.get().pgid() != pgid && p.get().startTicks() == members.get(pid)) {
                os.signal(pid, signal);
            }
        }
    }

    /** Drops members found dead; true at the first one still alive (so a settled wait costs one read per tick). */
    private static boolean anyAlive(List<Map.Entry<Long, Long>> waiting) {
        while (!waiting.isEmpty()) {
            Map.Entry<Long, Long> m = waiting.get(waiting.size() - 1);
            Optional<ProcInfo> p = LinuxProcesses.readStat(m.getKey());
            if (p.isPresent() && p.get().alive() && p.get().startTicks() == m.getValue()) {
                return true;
            }
            waiting.remove(waiting.size() - 1);
        }
        return false;
    }

    private static Map<Long, Long> find(OsProcesses os, long leader, String tag, long notBefore) {
        ProcessTable table = os.snapshot();
        Map<Long, Long> out = new LinkedHashMap<>();
        for (ProcInfo p : table.all()) {
            if (p.alive() && p.pgid() == leader) {
                out.put(p.pid(), p.startTicks());
            }
        }
        for (long pid : table.descendantsOf(leader)) {
            table.get(pid).filter(ProcInfo::alive).ifPresent(p -> out.put(p.pid(), p.startTicks()));
        }
        long self = ProcessHandle.current().pid();
        for (ProcInfo p : table.all()) {
            if (p.alive() && p.startTicks() >= notBefore && !out.containsKey(p.pid()) && p.pid() != self && p.pid() > 1
                    && os.hasEnvEntry(p.pid(), tag)) {
                out.put(p.pid(), p.startTicks());
            }
        }
        return out;
    }
}
