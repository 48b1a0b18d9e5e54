package dev.runboard.process;

import dev.runboard.session.ProcessTreeSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU and memory of every watched session from ONE pass over {@code /proc}, shared by all sessions
 * (DESIGN.md: ~2 ms for ~170 processes). A session's processes are its group's members, the
 * leader's descendants, and processes carrying its env tag (daemons that left the group). A pass
 * whose sessions are all new reads only their trees ({@link ChildrenLists}); the next finds the rest.
 *
 * <p>CPU % is the change in a process's utime+stime since the previous pass over the wall time
 * between passes (100 % = one core); a process seen for the first time is given its lifetime
 * average. RSS is summed over the tree, so pages shared between processes count once per process,
 * as {@code ps} shows them. Environments and command lines are read once per process, then cached.
 * Not thread-safe: one monitor thread calls {@link #sample}.
 *
 * <p>No lambdas or streams: a fresh exec's JVM makes its first pass while its command runs, and linking
 * each lambda there cost ~0.4 ms of CPU, a third of that pass (docs/BENCHMARKS.md §10, round 14).
 */
public final class ResourceSampler {
    private static final Path PROC = Path.of("/proc");

    /**
     * A session to account for: its id (the env tag's value), its leader (its wrapper: the tree's
     * root) and its command's process group (below the wrapper; the leader's own when it has none).
     */
    public record Target(String sessionId, long leaderPid, long groupId) {
        public Target(String sessionId, long leaderPid) {
            this(sessionId, leaderPid, leaderPid);
        }
    }

    /** One session's share of a pass. */
    public record Usage(String sessionId, double cpuPercent, long rssBytes, double cpuSeconds, ProcessTreeSnapshot tree) {
        public int processCount() {
            return tree.nodes().size();
        }
    }

    /** One pass: when, what it cost, how many processes it read, and each target's usage. */
    public record Pass(Instant at, long costNanos, int processesRead, Map<String, Usage> bySession,
                       Map<String, Map<Long, Long>> held) {
    }

    /*
     * The two cache keys spell out equals and hashCode: a record's own are bootstrapped through
     * invokedynamic (java.lang.runtime.ObjectMethods), whose method-handle spinning cost ~25 ms of
     * CPU at the first pass of every fresh JVM, an exec's while its command runs (docs/BENCHMARKS.md §10).
     */
    private record ProcKey(long pid, long startTicks) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ProcKey k && k.pid == pid && k.startTicks == startTicks;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(pid) * 31 + Long.hashCode(startTicks);
        }
    }

    private record CommandKey(long pid, long startTicks, String comm) {
        @Override
        public boolean equals(Object o) {
            return o instanceof CommandKey k && k.pid == pid && k.startTicks == startTicks && k.comm.equals(comm);
        }

        @Override
        public int hashCode() {
            return (Long.hashCode(pid) * 31 + Long.hashCode(startTicks)) * 31 + comm.hashCode();
        }
    }

    /** A process's CPU ticks and when its stat was read: a pass reads hundreds of files, and on a loaded machine it can be descheduled mid-pass. */
    private record TickReading(long ticks, long nanos) {
    }

    private final String tagName;
    private final long clockTicks;
    private final long pageSize;
    private final long self = ProcessHandle.current().pid();
    private Map<ProcKey, TickReading> previousTicks = new HashMap<>();
    private final Map<ProcKey, String> tagValues = new HashMap<>();
    private final Map<CommandKey, String> commands = new HashMap<>();
    /** The sessions the last pass sampled: a pass where every one is new reads only their trees. */
    private final java.util.Set<String> sampledBefore = new java.util.HashSet<>();

    /** @param tagName the env variable that tags a session's processes, e.g. {@code RUNBOARD_SESSION} */
    public ResourceSampler(String tagName) {
        this.tagName = tagName + "=";
        this.clockTicks = Sysconf.CLOCK_TICKS;
        this.pageSize = Sysconf.PAGE_SIZE;
    }

    public synchronized Pass sample(Collection<Target> targets) {
        long start = System.nanoTime();
        Instant at = Instant.now();
        double uptime = ProcFiles.uptimeSeconds();
        long uptimeNanos = System.nanoTime();
        Map<Long, Long> readNanos = new HashMap<>(512);
        List<ProcSample> all = null;
        if (!targets.isEmpty() && allNew(targets)) {
            // A session's first pass (an exec's only one, when its command runs a second or two) reads its
            // own tree: the whole of /proc was most of the CPU an exec's JVM took from its command, and
            // what only a full pass finds, a daemon that left the tree, is found from the next pass on.
            List<Long> leaders = new ArrayList<>();
            for (Target t : targets) {
                leaders.add(t.leaderPid());
            }
            all = ChildrenLists.readTrees(leaders, readNanos);
        }
        if (all == null) {
            all = readAll(readNanos);
        }
        sampledBefore.clear();
        for (Target t : targets) {
            sampledBefore.add(t.sessionId());
        }
        Map<Long, ProcSample> byPid = new HashMap<>(all.size() * 2);
        Map<Long, List<Long>> children = new HashMap<>();
        for (ProcSample p : all) {
            byPid.put(p.pid(), p);
            listIn(children, p.ppid()).add(p.pid());
        }

        Map<Long, Target> owner = new LinkedHashMap<>();
        // Found by the tag alone: outside the leader's tree and group (a daemon whose wrapper is gone).
        // Escaped too: in the tree, but out of the command's group (setsid, setpgid).
        java.util.Set<Long> byTag = new java.util.HashSet<>();
        Map<String, Target> byId = new HashMap<>();
        for (Target t : targets) {
            byId.put(t.sessionId(), t);
            for (ProcSample p : all) {
                if ((p.pgid() == t.leaderPid() || p.pgid() == t.groupId()) && p.alive()) {
                    owner.putIfAbsent(p.pid(), t);
                }
            }
            Deque<Long> todo = new ArrayDeque<>();
            todo.add(t.leaderPid());
            while (!todo.isEmpty()) {
                for (long child : children.getOrDefault(todo.poll(), List.of())) {
                    if (owner.putIfAbsent(child, t) == null) {
                        todo.add(child);
                    }
                }
            }
        }
        if (!targets.isEmpty()) {
            long notBefore = youngestPossibleTagged(targets, byPid);
            for (ProcSample p : all) {
                if (p.alive() && p.pid() != self && p.startTicks() >= notBefore && !owner.containsKey(p.pid())) {
                    Target t = byId.get(tagValue(p));
                    if (t != null) {
                        owner.put(p.pid(), t);
                        byTag.add(p.pid());
                    }
                }
            }
        }
        pruneCaches(byPid);

        // Each process's CPU is its ticks over the time between the reads of its own stat, not between
        // the passes' starts: a pass descheduled before it reached a busy process would otherwise give
        // it the ticks of a longer interval than it divides by (a busy loop read at 140 % on a loaded CI).
        Map<ProcKey, TickReading> ticksNow = new HashMap<>();
        Map<String, List<ProcessTreeSnapshot.Node>> nodes = new HashMap<>();
        Map<String, double[]> sums = new HashMap<>(); // cpu %, rss bytes, cpu seconds
        for (Map.Entry<Long, Target> e : owner.entrySet()) {
            ProcSample p = byPid.get(e.getKey());
            if (p == null || !p.alive()) {
                continue;
            }
            Target t = e.getValue();
            ProcKey key = new ProcKey(p.pid(), p.startTicks());
            long readAt = readNanos.getOrDefault(p.pid(), start);
            ticksNow.put(key, new TickReading(p.ownTicks(), readAt));
            TickReading before = previousTicks.get(key);
            double seconds = before == null ? 0 : (readAt - before.nanos()) / 1e9;
            double cpu;
            if (before != null && seconds > 0) {
                cpu = (p.ownTicks() - before.ticks()) * 100.0 / clockTicks / seconds;
            } else {
                // New since the last pass: its average over its life, up to when its stat was read.
                double age = uptime + (readAt - uptimeNanos) / 1e9 - (double) p.startTicks() / clockTicks;
                cpu = age > 0.05 ? p.ownTicks() * 100.0 / clockTicks / age : 0;
            }
            cpu = Math.max(0, cpu);
            long rss = p.rssPages() * pageSize;
            listIn(nodes, t.sessionId()).add(new ProcessTreeSnapshot.Node(
                    p.pid(), p.ppid(), command(p), p.state(), cpu, rss,
                    byTag.contains(p.pid()) || p.pgid() != t.groupId() && p.pid() != t.leaderPid()));
            double[] s = sums.get(t.sessionId());
            if (s == null) {
                s = new double[3];
                sums.put(t.sessionId(), s);
            }
            s[0] += cpu;
            s[1] += rss;
            s[2] += (double) (p.ownTicks() + p.childTicks()) / clockTicks;
        }
        previousTicks = ticksNow;
        // What each session held, by pid and start time: if its wrapper is killed, its orphans re-parent
        // away from the tree, and a kill without the wrapper still finds them by these (TreeKill).
        Map<String, Map<Long, Long>> held = new HashMap<>();
        for (Map.Entry<Long, Target> e : owner.entrySet()) {
            ProcSample p = byPid.get(e.getKey());
            if (p != null && p.alive() && p.pid() != e.getValue().leaderPid()) {
                Map<Long, Long> mine = held.get(e.getValue().sessionId());
                if (mine == null) { // plain code, no lambda: each costs an exec's JVM its first link (see ProcKey)
                    mine = new HashMap<>();
                    held.put(e.getValue().sessionId(), mine);
                }
                mine.put(p.pid(), p.startTicks());
            }
        }

        Map<String, Usage> out = new LinkedHashMap<>();
        for (Target t : targets) {
            double[] s = sums.getOrDefault(t.sessionId(), new double[3]);
            out.put(t.sessionId(), new Usage(t.sessionId(), s[0], (long) s[1], s[2],
                    new ProcessTreeSnapshot(t.leaderPid(), nodes.getOrDefault(t.sessionId(), List.of()))));
        }
        return new Pass(at, System.nanoTime() - start, all.size(), out, held);
    }

    private boolean allNew(Collection<Target> targets) {
        for (Target t : targets) {
            if (sampledBefore.contains(t.sessionId())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The start time (clock ticks after boot) before which no process can carry a target's tag: a
     * tag is inherited from the session's leader, so a process started before every leader was
     * started without one. The first pass of a fresh JVM read every older process's environment
     * (a desktop's hundreds) for nothing. 0 (read all) while a leader has gone, as its start is unknown.
     */
    private static long youngestPossibleTagged(Collection<Target> targets, Map<Long, ProcSample> byPid) {
        long oldest = Long.MAX_VALUE;
        for (Target t : targets) {
            ProcSample leader = byPid.get(t.leaderPid());
            if (leader == null) {
                return 0;
            }
            oldest = Math.min(oldest, leader.startTicks());
        }
        return oldest;
    }

    /** Every process's stat, and in {@code readNanos} when each was read. */
    private static List<ProcSample> readAll(Map<Long, Long> readNanos) {
        List<ProcSample> all = new ArrayList<>(256);
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC)) {
            for (Path dir : dirs) {
                String name = dir.getFileName().toString();
                if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
                    try {
                        ProcSample p = ProcSample.read(dir);
                        readNanos.put(p.pid(), System.nanoTime());
                        all.add(p);
                    } catch (IOException | RuntimeException gone) {
                        // processes vanish between listing and reading
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
        }
        return all;
    }

    /** The value of the tag variable in the process's environment ("" when absent or unreadable); read once per process. */
    private String tagValue(ProcSample p) {
        ProcKey key = new ProcKey(p.pid(), p.startTicks());
        String known = tagValues.get(key);
        if (known == null) {
            known = readTagValue(p);
            tagValues.put(key, known);
        }
        return known;
    }

    private String readTagValue(ProcSample p) {
        byte[] env;
        try {
            env = Files.readAllBytes(PROC.resolve(Long.toString(p.pid())).resolve("environ"));
        } catch (IOException | SecurityException e) {
            return "";
        }
        String text = new String(env, StandardCharsets.ISO_8859_1);
        int at = text.startsWith(tagName) ? 0 : text.indexOf("\0" + tagName);
        if (at < 0) {
            return "";
        }
        int from = at == 0 && text.startsWith(tagName) ? tagName.length() : at + 1 + tagName.length();
        int end = text.indexOf('\0', from);
        return text.substring(from, end < 0 ? text.length() : end);
    }

    private String command(ProcSample p) {
        CommandKey key = new CommandKey(p.pid(), p.startTicks(), p.comm());
        String known = commands.get(key);
        if (known == null) {
            known = readCommand(p);
            commands.put(key, known);
        }
        return known;
    }

    private static String readCommand(ProcSample p) {
        try {
            byte[] raw = Files.readAllBytes(PROC.resolve(Long.toString(p.pid())).resolve("cmdline"));
            if (raw.length > 0) {
                return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
            }
        } catch (IOException e) {
            // gone or unreadable: the short name below
        }
        return "[" + p.comm() + "]";
    }

    private void pruneCaches(Map<Long, ProcSample> byPid) {
        for (java.util.Iterator<ProcKey> i = tagValues.keySet().iterator(); i.hasNext(); ) {
            ProcKey k = i.next();
            if (!sameProcess(byPid.get(k.pid()), k.startTicks())) {
                i.remove();
            }
        }
        for (java.util.Iterator<CommandKey> i = commands.keySet().iterator(); i.hasNext(); ) {
            CommandKey k = i.next();
            if (!sameProcess(byPid.get(k.pid()), k.startTicks())) {
                i.remove();
            }
        }
    }

    /** The list under {@code key}, made empty when there is none. */
    private static <K, V> List<V> listIn(Map<K, List<V>> map, K key) {
        List<V> list = map.get(key);
        if (list == null) {
            list = new ArrayList<>();
            map.put(key, list);
        }
        return list;
    }

    private static boolean sameProcess(ProcSample p, long startTicks) {
        return p != null && p.startTicks() == startTicks;
    }

    /**
     * Clock ticks per second and the page size (100 and 4096 on Linux x86-64), read once from the
     * auxiliary vector the kernel gave this process ({@code /proc/self/auxv}: AT_CLKTCK, AT_PAGESZ),
     * which is where libc's sysconf finds them too; {@code getconf} only if that cannot be read.
     * Not a fork per value: two {@code getconf} runs cost a short exec ~7 ms (docs/BENCHMARKS.md §10).
     */
    static final class Sysconf {
        private static final int AT_PAGESZ = 6;
        private static final int AT_CLKTCK = 17;
        private static final Map<Long, Long> AUXV = readAuxv();
        static final long CLOCK_TICKS = value(AT_CLKTCK, "CLK_TCK", 100);
        static final long PAGE_SIZE = value(AT_PAGESZ, "PAGESIZE", 4096);

        private static long value(int type, String name, long fallback) {
            Long v = AUXV.get((long) type);
            return v != null && v > 0 ? v : getconf(name, fallback);
        }

        /** Pairs of native words (type, value); 64-bit little-endian, the only layout read here. */
        private static Map<Long, Long> readAuxv() {
            Map<Long, Long> entries = new HashMap<>();
            try {
                if (!"64".equals(System.getProperty("sun.arch.data.model"))
                        || java.nio.ByteOrder.nativeOrder() != java.nio.ByteOrder.LITTLE_ENDIAN) {
                    return entries;
                }
                java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(Files.readAllBytes(Path.of("/proc/self/auxv")))
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
                while (b.remaining() >= 16) {
                    long type = b.getLong();
                    long value = b.getLong();
                    if (type == 0) {
                        break; // AT_NULL ends the vector
                    }
                    entries.put(type, value);
                }
            } catch (IOException | RuntimeException e) {
                // no /proc (or not Linux): getconf below
            }
            return entries;
        }

        private static long getconf(String name, long fallback) {
            try {
                Process p = new ProcessBuilder("getconf", name).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
                return p.waitFor() == 0 ? Long.parseLong(out) : fallback;
            } catch (IOException | RuntimeException e) {
                return fallback;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return fallback;
            }
        }
    }
}
