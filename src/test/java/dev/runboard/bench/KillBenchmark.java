package dev.runboard.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.EngineConfig;
import dev.runboard.process.LinuxProcesses;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcessTable;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 5, benchmark 6: time from {@code kill()} to zero survivors for a 100-process tree.
 *
 * <p>Run with {@code bench/kill.sh} (or {@code ./mvnw -B -Pbench test -Dtest=KillBenchmark}; surefire
 * sends this output to {@code target/surefire-reports/dev.runboard.bench.KillBenchmark-output.txt}).
 * Each round builds a fresh tree and ends it two ways, interleaved: the engine's {@code kill()} and,
 * as the baseline, the OS floor (signal the group directly, then poll {@code /proc} until no live
 * process carries the session's tag). After every round an independent {@code /proc} scan must find
 * no live process carrying the tag.
 */
@Tag("bench")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KillBenchmark {
    static final int ROUNDS = Integer.getInteger("bench.rounds", 5);
    /** 4 levels of bash (1 + 3 + 9 + 18 = 31) and 69 sleeps: 100 processes. */
    static final int TREE_SIZE = 100;
    static final String IGNORER_PATH = "0.0.0.0.s0";
    static final Duration TWO_SECONDS = Duration.ofSeconds(2);

    /** Level L bash starts CHILDREN[L] bash children and SLEEPS[L] sleeps, then waits. */
    static final String TREE_SCRIPT = String.join("\n",
            "#!/bin/bash",
            "# tree.sh LEVEL PATH: one node of the benchmark tree",
            "lvl=$1; path=$2",
            "children=(3 3 2 0); sleeps=(0 2 1 3)",
            "for ((i = 0; i < ${children[lvl]}; i++)); do bash \"$0\" $((lvl + 1)) \"$path.$i\" & done",
            "for ((i = 0; i < ${sleeps[lvl]}; i++)); do",
            "  if [ \"$path.s$i\" = \"${IGNORE_TERM_AT:-}\" ]; then (trap '' TERM; exec sleep 1000) &",
            "  else sleep 1000 &",
            "  fi",
            "done",
            "wait",
            "");

    @TempDir
    Path tmp;
    Path script;
    SessionEngine engine;
    ProfilingOs os;
    final List<String> tags = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        script = Files.writeString(tmp.resolve("tree.sh"), TREE_SCRIPT);
        EngineConfig standard = EngineConfig.forDataDir(tmp.resolve("data"));
        os = new ProfilingOs(standard.os());
        engine = new SessionEngine(standard.withOs(os));
    }

    @AfterEach
    void cleanUp() {
        engine.killAll(Duration.ZERO);
        for (String tag : tags) {
            for (long pid : TaggedProcesses.alive(tag)) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        engine.close();
        for (String tag : tags) {
            assertEquals(List.of(), TaggedProcesses.alive(tag), "processes left after the benchmark for " + tag);
        }
    }

    @Test
    @Order(1)
    void graceZero() throws Exception {
        printHeader();
        Rounds engineKill = new Rounds();
        Rounds listener = new Rounds();
        Rounds floor = new Rounds();
        List<String> profiles = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            Tree t = startTree(false);
            floor.add(floorKill(t, Signal.KILL, Duration.ZERO));

            Tree e = startTree(false);
            os.reset(-1);
            Timed timed = engineKill(e, Duration.ZERO);
            String profile = os.profile();
            engineKill.add(timed.toReport);
            listener.add(timed.toListener);
            profiles.add(profile);

            System.out.printf(Locale.ROOT, "  round %d: engine kill() (the wrapper's) -> report with 0 survivors %.1f ms"
                    + " (listener %.1f ms; %s); floor %.1f ms%n",
                    round, timed.toReport, timed.toListener, timed.report.summary(), floor.last());
            System.out.println("           the engine's own /proc reads meanwhile: " + profile);
        }
        System.out.println("grace 0 (TERM, then KILL at once), " + TREE_SIZE + "-process tree, " + ROUNDS + " rounds:");
        System.out.println("  engine kill() -> kill report, 0 survivors verified: " + engineKill.describe() + "   target < 100 ms: "
                + (engineKill.median() < 100 ? "met" : "MISSED") + " (median)" + (engineKill.max() < 100 ? ", met by every round" : ""));
        System.out.println("  engine kill() -> session listener (status killed): " + listener.describe());
        System.out.println("  baseline, OS floor (kill(-pgid, KILL), then /proc polled until no live tagged process): " + floor.describe());
        printProcPassCost();
    }

    @Test
    @Order(2)
    void termIgnorerWithTwoSecondGrace() throws Exception {
        printHeader();
        Rounds engineKill = new Rounds();
        Rounds floor = new Rounds();
        for (int round = 1; round <= ROUNDS; round++) {
            Tree t = startTree(true);
            floor.add(floorKill(t, Signal.TERM, TWO_SECONDS));
            Tree e = startTree(true);
            os.reset(-1);
            Timed timed = engineKill(e, TWO_SECONDS);
            String profile = os.profile();
            assertTrue(timed.report.escalatedToKill(), "the TERM-ignorer should force the escalation to KILL");
            engineKill.add(timed.toReport);
            System.out.printf(Locale.ROOT, "  round %d: engine kill() (the wrapper's) -> report with 0 survivors %.1f ms"
                    + " (listener %.1f ms; %s); floor %.1f ms%n", round, timed.toReport, timed.toListener, timed.report.summary(),
                    floor.last());
            System.out.println("           the engine's own /proc reads meanwhile: " + profile);
        }
        double target = TWO_SECONDS.toMillis() + 150;
        System.out.println("TERM-ignorer in the tree, grace 2 s, " + TREE_SIZE + "-process tree, " + ROUNDS + " rounds:");
        System.out.println("  engine kill() -> kill report, 0 survivors verified: " + engineKill.describe() + "   target < 2150 ms: "
                + (engineKill.median() < target ? "met" : "MISSED") + " (median)" + (engineKill.max() < target ? ", met by every round" : ""));
        System.out.println("  beyond the grace: median " + fmt(engineKill.median() - TWO_SECONDS.toMillis()) + " ms, max "
                + fmt(engineKill.max() - TWO_SECONDS.toMillis()) + " ms (target < 150 ms)");
        System.out.println("  baseline, OS floor (TERM the group, poll /proc every 10 ms up to 2 s, KILL the group, poll until none): "
                + floor.describe());
    }

    // ---- one round ---------------------------------------------------------------------------

    /** The command's process group, below its wrapper, as the wrapper names it in the session's folder. */
    private long commandGroup(Session s) throws IOException {
        Path file = tmp.resolve("data/sessions").resolve(s.id()).resolve("command");
        return Long.parseLong(Files.readString(file).strip().split(" ")[0]);
    }

    record Tree(Session session, CompletableFuture<SessionSnapshot> ended) {
    }

    record Timed(double toReport, double toListener, KillReport report) {
    }

    private Tree startTree(boolean withIgnorer) throws Exception {
        SessionSpec.Builder spec = SessionSpec.argv("bash", script.toString(), "0", "0").cwd(tmp);
        if (withIgnorer) {
            spec.env("IGNORE_TERM_AT", IGNORER_PATH);
        }
        Session s = engine.start(spec.build());
        tags.add(s.tag());
        CompletableFuture<SessionSnapshot> ended = new CompletableFuture<>();
        s.addListener(ended::complete);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int n = 0;
        // The exit-status wrapper (perl) leads the group: one process on top of the command's tree.
        int expected = TREE_SIZE + (os.commandLine(s.pid()).contains("runboard-wrap") ? 1 : 0);
        while (System.nanoTime() < deadline && (n = TaggedProcesses.alive(s.tag()).size()) < expected) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        assertEquals(expected, n, "the tree did not reach " + TREE_SIZE + " processes (plus the wrapper)");
        if (withIgnorer) {
            assertTrue(TaggedProcesses.ignoringTerm(s.tag()) >= 1, "no process ignores TERM");
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // let every bash reach its `wait`
        return new Tree(s, ended);
    }

    private Timed engineKill(Tree tree, Duration grace) throws Exception {
        long t0 = System.nanoTime();
        CompletableFuture<KillReport> kill = engine.kill(tree.session(), Signal.TERM, grace);
        KillReport report = kill.get(30, TimeUnit.SECONDS);
        long tReport = System.nanoTime();
        SessionSnapshot last = tree.ended().get(30, TimeUnit.SECONDS);
        long tListener = System.nanoTime();
        assertEquals(List.of(), report.survivors(), "kill report survivors");
        // The wrapper (never signalled: it holds the tree) exits once the last process of it has gone.
        dev.runboard.process.Await.until(Duration.ofSeconds(5), "no live tagged process after kill()",
                () -> TaggedProcesses.alive(tree.session().tag()).isEmpty());
        assertEquals(SessionStatus.KILLED, last.status());
        return new Timed(ms(tReport - t0), ms(tListener - t0), report);
    }

    /** What the OS allows: signal the group, wait (polling) up to the grace, KILL it, poll until nothing lives. */
    private double floorKill(Tree tree, Signal signal, Duration grace) throws Exception {
        long pgid = commandGroup(tree.session());
        String tag = tree.session().tag();
        long t0 = System.nanoTime();
        os.signalGroup(pgid, signal);
        if (signal != Signal.KILL) {
            long deadline = t0 + grace.toNanos();
            while (System.nanoTime() < deadline && !TaggedProcesses.alive(tag).isEmpty()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            os.signalGroup(pgid, Signal.KILL);
        }
        while (!TaggedProcesses.alive(tag).isEmpty()) {
            Thread.onSpinWait();
        }
        long t1 = System.nanoTime();
        tree.ended().get(30, TimeUnit.SECONDS);
        assertEquals(List.of(), TaggedProcesses.alive(tag));
        return ms(t1 - t0);
    }

    private static long startTicks(long pid) {
        return LinuxProcesses.readStat(pid).orElseThrow().startTicks();
    }

    // ---- reporting -----------------------------------------------------------------------------

    private static void printHeader() {
        System.out.println("== kill benchmark (issue 5 #6) ==");
        System.out.println("machine: " + Runtime.getRuntime().availableProcessors() + " cores, JDK " + System.getProperty("java.vm.version")
                + ", kernel " + System.getProperty("os.version") + ", " + TaggedProcesses.count() + " processes on the machine"
                + ", load " + loadAverage() + " (shared machine: expect noise)");
    }

    /**
     * What one pass over /proc costs the engine (its stat snapshot, and its env-tag check applied to
     * every process), next to a byte-level pass that reads the same fields into a reused buffer.
     */
    private void printProcPassCost() {
        int reps = 21;
        double[] snap = new double[reps];
        double[] env = new double[reps];
        double[] fast = new double[reps];
        int n = 0;
        int fastN = 0;
        for (int i = 0; i < reps; i++) {
            long a = System.nanoTime();
            ProcessTable table = os.snapshot();
            long b = System.nanoTime();
            table.all().forEach(p -> os.hasEnvEntry(p.pid(), "RUNBOARD_SESSION=none"));
            long c = System.nanoTime();
            fastN = FastStatScan.pass();
            long d = System.nanoTime();
            snap[i] = ms(b - a);
            env[i] = ms(c - b);
            fast[i] = ms(d - c);
            n = table.size();
        }
        Arrays.sort(snap);
        Arrays.sort(env);
        Arrays.sort(fast);
        System.out.printf(Locale.ROOT, "  cost of one engine /proc pass with %d processes on the machine: stat snapshot median %.2f ms,"
                + " env-tag check of every process median %.2f ms; a byte-level stat pass (reused buffer, no String.split) over %d"
                + " processes median %.2f ms (%d passes each)%n", n, snap[reps / 2], env[reps / 2], fastN, fast[reps / 2], reps);
    }

    /** A prototype of a cheaper process-table pass: pid, state, ppid, pgrp and start time parsed from bytes. */
    static final class FastStatScan {
        private static final byte[] BUF = new byte[4096];
        static long sink;

        private FastStatScan() {
        }

        static int pass() {
            String[] names = new java.io.File("/proc").list();
            int n = 0;
            if (names == null) {
                return 0;
            }
            for (String name : names) {
                if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
                    continue;
                }
                int len;
                try (java.io.FileInputStream in = new java.io.FileInputStream("/proc/" + name + "/stat")) {
                    len = in.read(BUF);
                } catch (IOException gone) {
                    continue;
                }
                int close = len - 1;
                while (close > 0 && BUF[close] != ')') {
                    close--;
                }
                int i = close + 2;
                byte state = BUF[i];
                long[] fields = new long[20];
                int f = 0;
                i += 2;
                while (f < 20 && i < len) {
                    long v = 0;
                    boolean neg = false;
                    if (BUF[i] == '-') {
                        neg = true;
                        i++;
                    }
                    while (i < len && BUF[i] != ' ') {
                        v = v * 10 + (BUF[i] - '0');
                        i++;
                    }
                    fields[f++] = neg ? -v : v;
                    i++;
                }
                sink += state + fields[0] + fields[1] + fields[2] + fields[18]; // ppid, pgrp, session, starttime
                n++;
            }
            return n;
        }
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Times of the rounds, in ms. */
    static final class Rounds {
        private final List<Double> values = new ArrayList<>();

        void add(double v) {
            values.add(v);
        }

        double last() {
            return values.get(values.size() - 1);
        }

        double median() {
            List<Double> s = values.stream().sorted().toList();
            int n = s.size();
            return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
        }

        double max() {
            return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }

        String describe() {
            return "median " + fmt(median()) + " ms, max " + fmt(max()) + " ms (rounds: "
                    + String.join(" ", values.stream().map(KillBenchmark::fmt).toList()) + ")";
        }
    }

    /**
     * The engine's OS seam, timed: how many process-table passes, env reads and command-line reads a
     * kill makes and what they cost. With {@code notBeforeTicks >= 0} it also tries the suggested fix:
     * a process that started before the session's leader cannot carry the session's tag, so its
     * environ is not read.
     */
    static final class ProfilingOs implements OsProcesses {
        private final OsProcesses os;
        private volatile long notBeforeTicks = -1;
        private volatile ProcessTable lastTable;
        private final java.util.concurrent.atomic.LongAdder snapshots = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder snapshotNanos = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder envReads = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder envSkipped = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder envNanos = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder cmdlines = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder cmdlineNanos = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder signals = new java.util.concurrent.atomic.LongAdder();
        private volatile int lastTableSize;

        ProfilingOs(OsProcesses os) {
            this.os = os;
        }

        void reset(long notBeforeTicks) {
            this.notBeforeTicks = notBeforeTicks;
            for (var a : List.of(snapshots, snapshotNanos, envReads, envSkipped, envNanos, cmdlines, cmdlineNanos, signals)) {
                a.reset();
            }
        }

        String profile() {
            return String.format(Locale.ROOT, "%d /proc passes (%.1f ms, %d processes each), %d environ reads (%.1f ms)%s,"
                            + " %d cmdline reads (%.1f ms), %d signals",
                    snapshots.sum(), ms(snapshotNanos.sum()), lastTableSize, envReads.sum(), ms(envNanos.sum()),
                    envSkipped.sum() > 0 ? ", " + envSkipped.sum() + " skipped by start time" : "",
                    cmdlines.sum(), ms(cmdlineNanos.sum()), signals.sum());
        }

        @Override
        public List<String> launchPrefix() {
            return os.launchPrefix();
        }

        @Override
        public boolean supportsTreeKill() {
            return os.supportsTreeKill();
        }

        @Override
        public java.util.Optional<String> limitations() {
            return os.limitations();
        }

        @Override
        public boolean isAlive(long pid) {
            return os.isAlive(pid);
        }

        @Override
        public long startTicks(long pid) {
            return os.startTicks(pid);
        }

        @Override
        public boolean signalGroup(long pgid, Signal signal) {
            signals.increment();
            return os.signalGroup(pgid, signal);
        }

        @Override
        public boolean signal(long pid, Signal signal) {
            signals.increment();
            return os.signal(pid, signal);
        }

        @Override
        public Delivery signalGroup(long leaderPid, long leaderStartTicks, Signal signal) {
            signals.increment();
            return os.signalGroup(leaderPid, leaderStartTicks, signal);
        }

        @Override
        public Delivery signal(long pid, long startTicks, Signal signal) {
            signals.increment();
            return os.signal(pid, startTicks, signal);
        }

        @Override
        public boolean isOurs(long pid) {
            return os.isOurs(pid);
        }

        @Override
        public boolean isAlive(long pid, long startTicks) {
            return os.isAlive(pid, startTicks);
        }

        @Override
        public boolean isSameProcess(long pid, long startTicks) {
            return os.isSameProcess(pid, startTicks);
        }

        @Override
        public ProcessTable snapshot() {
            long t = System.nanoTime();
            ProcessTable table = os.snapshot();
            snapshotNanos.add(System.nanoTime() - t);
            snapshots.increment();
            lastTable = table;
            lastTableSize = table.size();
            return table;
        }

        @Override
        public boolean hasEnvEntry(long pid, String entry) {
            long floor = notBeforeTicks;
            ProcessTable table = lastTable;
            if (floor >= 0 && table != null) {
                var p = table.get(pid);
                if (p.isPresent() && p.get().startTicks() < floor) {
                    envSkipped.increment();
                    return false;
                }
            }
            long t = System.nanoTime();
            boolean has = os.hasEnvEntry(pid, entry);
            envNanos.add(System.nanoTime() - t);
            envReads.increment();
            return has;
        }

        @Override
        public String commandLine(long pid) {
            long t = System.nanoTime();
            String line = os.commandLine(pid);
            cmdlineNanos.add(System.nanoTime() - t);
            cmdlines.increment();
            return line;
        }
    }

    /** An independent scan of /proc (not the engine's code): live processes carrying an env entry. */
    static final class TaggedProcesses {
        private TaggedProcesses() {
        }

        static List<Long> alive(String tag) {
            byte[] needle = tag.getBytes(StandardCharsets.UTF_8);
            List<Long> out = new ArrayList<>();
            for (long pid : pids()) {
                if (isLive(pid) && hasEntry(pid, needle)) {
                    out.add(pid);
                }
            }
            return out;
        }

        /** How many live tagged processes have SIGTERM (bit 15) in their ignored set. */
        static int ignoringTerm(String tag) {
            int n = 0;
            for (long pid : alive(tag)) {
                try {
                    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                        if (line.startsWith("SigIgn:") && (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << 14)) != 0) {
                            n++;
                        }
                    }
                } catch (IOException | RuntimeException gone) {
                    // it ended meanwhile
                }
            }
            return n;
        }

        static int count() {
            return pids().size();
        }

        private static List<Long> pids() {
            List<Long> out = new ArrayList<>();
            String[] names = new java.io.File("/proc").list();
            if (names != null) {
                for (String name : names) {
                    if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
                        out.add(Long.parseLong(name));
                    }
                }
            }
            return out;
        }

        /** Alive = present and not a zombie (Z) or dead (X); a zombie has ended though it is still listed. */
        private static boolean isLive(long pid) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1);
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                return state != 'Z' && state != 'X';
            } catch (IOException | RuntimeException gone) {
                return false;
            }
        }

        private static boolean hasEntry(long pid, byte[] needle) {
            byte[] env;
            try {
                env = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
            } catch (IOException | RuntimeException unreadable) {
                return false;
            }
            int start = 0;
            for (int i = 0; i <= env.length; i++) {
                if (i == env.length || env[i] == 0) {
                    if (Arrays.equals(env, start, i, needle, 0, needle.length)) {
                        return true;
                    }
                    start = i + 1;
                }
            }
            return false;
        }
    }
}
