package dev.runboard.process;

import dev.runboard.session.ProcessTreeSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU, memory and the process tree of sessions that run elsewhere, from usage frames sampled where
 * they run: an ssh host's poll (its helper's one pass over the host's {@code /proc}) or a Slurm
 * job's wrapper on its node (its {@code usage} file), in the local sampler's terms so such a row
 * reads like a local one. One reader of the one frame format, whoever wrote it. CPU % is a process's utime+stime since the previous frame over the
 * host's uptime between them (its own clock: no ssh latency in it); a process seen for the first
 * time is given its lifetime average, as {@link ResourceSampler} does. Called by the host's poller
 * only; the latest usages are read by any thread.
 */
public final class TreeUsageFrames {
    private record ProcKey(long pid, long startTicks) {
    }

    private final long clockTicks;
    private final long pageSize;
    private Map<ProcKey, Long> previousTicks = new HashMap<>();
    private double previousUptime;
    private volatile Map<String, ResourceSampler.Usage> latest = Map.of();

    public TreeUsageFrames(long clockTicks, long pageSize) {
        this.clockTicks = clockTicks;
        this.pageSize = pageSize;
    }

    /** The session's usage at the last frame, or null when none has been read (or it was not among them). */
    public ResourceSampler.Usage of(String sessionId) {
        return latest.get(sessionId);
    }

    /**
     * Reads one usage frame: "uptime SECONDS", then "p ID PID PPID PGID STATE START TICKS CHILD_TICKS
     * RSS COMMAND" lines; {@code leaders} are the polled sessions' leader pids (their wrappers), by id.
     */
    public void read(String frame, Map<String, Long> leaders) {
        double uptime = 0;
        Map<ProcKey, Long> ticksNow = new HashMap<>();
        Map<String, List<ProcessTreeSnapshot.Node>> nodes = new HashMap<>();
        Map<String, double[]> sums = new HashMap<>(); // cpu %, rss bytes, cpu seconds
        List<String[]> rows = new ArrayList<>();
        for (String line : frame.split("\n")) {
            if (line.startsWith("uptime ")) {
                uptime = Double.parseDouble(line.substring(7).strip());
            } else if (line.startsWith("p ")) {
                String[] f = line.split(" ", 11);
                if (f.length == 11) {
                    rows.add(f);
                }
            }
        }
        double seconds = previousUptime > 0 ? uptime - previousUptime : 0;
        // Each session's command group: its wrapper's oldest child that leads a group of its own (the
        // command, below the wrapper); what is outside it, but for the wrapper, left the group (escaped).
        Map<String, long[]> commandGroup = new HashMap<>(); // id -> {pgid, start}
        for (String[] f : rows) {
            long pid = Long.parseLong(f[2]);
            long start = Long.parseLong(f[6]);
            long[] known = commandGroup.get(f[1]);
            if (Long.parseLong(f[3]) == leaders.getOrDefault(f[1], -1L) && Long.parseLong(f[4]) == pid
                    && (known == null || start < known[1])) {
                commandGroup.put(f[1], new long[] {pid, start});
            }
        }
        for (String[] f : rows) {
            String id = f[1];
            long pid = Long.parseLong(f[2]);
            long ppid = Long.parseLong(f[3]);
            long pgid = Long.parseLong(f[4]);
            char state = f[5].charAt(0);
            long start = Long.parseLong(f[6]);
            long ticks = Long.parseLong(f[7]);
            long childTicks = Long.parseLong(f[8]);
            long rss = Long.parseLong(f[9]) * pageSize;
            ProcKey key = new ProcKey(pid, start);
            ticksNow.put(key, ticks);
            Long before = previousTicks.get(key);
            double cpu;
            if (before != null && seconds > 0) {
                cpu = (ticks - before) * 100.0 / clockTicks / seconds;
            } else {
                double age = uptime - (double) start / clockTicks;
                cpu = age > 0.05 ? ticks * 100.0 / clockTicks / age : 0;
            }
            cpu = Math.max(0, cpu);
            long leader = leaders.getOrDefault(id, -1L);
            long group = commandGroup.containsKey(id) ? commandGroup.get(id)[0] : leader;
            nodes.computeIfAbsent(id, k -> new ArrayList<>())
                    .add(new ProcessTreeSnapshot.Node(pid, ppid, f[10], state, cpu, rss, pid != leader && pgid != group));
            double[] s = sums.computeIfAbsent(id, k -> new double[3]);
            s[0] += cpu;
            s[1] += rss;
            s[2] += (double) (ticks + childTicks) / clockTicks;
        }
        previousTicks = ticksNow;
        previousUptime = uptime;
        Map<String, ResourceSampler.Usage> out = new HashMap<>();
        for (Map.Entry<String, Long> e : leaders.entrySet()) {
            double[] s = sums.getOrDefault(e.getKey(), new double[3]);
            out.put(e.getKey(), new ResourceSampler.Usage(e.getKey(), s[0], (long) s[1], s[2],
                    new ProcessTreeSnapshot(e.getValue(), nodes.getOrDefault(e.getKey(), List.of()))));
        }
        latest = Map.copyOf(out);
    }
}
