package dev.runboard.process;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The processes of the machine at one instant: one pass over /proc, shared by everyone who needs it. */
public final class ProcessTable {
    private final Map<Long, ProcInfo> byPid;
    private final Map<Long, List<Long>> children = new HashMap<>();

    public ProcessTable(Collection<ProcInfo> processes) {
        this.byPid = new HashMap<>();
        for (ProcInfo p : processes) {
            byPid.put(p.pid(), p);
            children.computeIfAbsent(p.ppid(), k -> new ArrayList<>()).add(p.pid());
        }
    }

    public Optional<ProcInfo> get(long pid) {
        return Optional.ofNullable(byPid.get(pid));
    }

    public Collection<ProcInfo> all() {
        return byPid.values();
    }

    public boolean isAlive(long pid) {
        ProcInfo p = byPid.get(pid);
        return p != null && p.alive();
    }

    /** Members of a process group that have not ended. */
    public List<ProcInfo> aliveInGroup(long pgid) {
        return byPid.values().stream().filter(p -> p.pgid() == pgid && p.alive()).toList();
    }

    /** All descendants of a process (not the process itself), breadth first. */
    public Set<Long> descendantsOf(long pid) {
        return descendantsOf(List.of(pid));
    }

    /** All descendants of some processes, breadth first; a root is included only as another root's descendant. */
    public Set<Long> descendantsOf(Collection<Long> pids) {
        Set<Long> out = new LinkedHashSet<>();
        Deque<Long> todo = new ArrayDeque<>(pids);
        while (!todo.isEmpty()) {
            for (Long child : children.getOrDefault(todo.poll(), List.of())) {
                if (out.add(child)) {
                    todo.add(child);
                }
            }
        }
        return out;
    }

    public int size() {
        return byPid.size();
    }
}
