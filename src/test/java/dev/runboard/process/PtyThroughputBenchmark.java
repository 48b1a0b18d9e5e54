package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.runboard.session.SessionSpec;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PTY capture throughput: the terminal held by util-linux script (the capture is script's stdout)
 * against the terminal held in this JVM by pty4j (a JVM thread copies the master into the capture),
 * with plain capture (the command writes the file itself) for reference. Same commands, interleaved
 * rounds, the order rotating each round; wall time from launch to the end the engine sees, and this
 * JVM's own CPU time over the run (the copier thread's cost; script's is outside the JVM).
 *
 * <p>{@code ./mvnw -o -Pbench test -Dtest=PtyThroughputBenchmark [-Dbench.mb=200 -Dbench.rounds=3]};
 * output in {@code target/surefire-reports/dev.runboard.process.PtyThroughputBenchmark-output.txt}.
 */
@Tag("bench")
class PtyThroughputBenchmark {
    static final int MB = Integer.getInteger("bench.mb", 200);
    static final int ROUNDS = Integer.getInteger("bench.rounds", 3);

    @TempDir
    Path dir;

    private record Run(double seconds, double jvmCpuSeconds, long captureBytes) {
    }

    @Test
    void scriptAgainstPty4jAgainstPlain() throws Exception {
        OsProcesses os = OsProcesses.forThisMachine();
        SessionLauncher plain = new SessionLauncher(os, dir, message -> { });
        PtyLauncher script = new PtyLauncher(os, plain, w -> { }, ScriptPty::find);
        PtyLauncher pty4j = new PtyLauncher(os, plain, w -> { }, Optional::empty);
        assumeTrue(script.holdsTerminalOutside(), "util-linux script is not installed");
        Map<String, String> workloads = new LinkedHashMap<>();
        workloads.put("yes (2-byte lines)", "yes | head -c " + MB + "M");
        workloads.put("100-byte lines", "yes \"$(printf '%099d' 0)\" | head -c " + MB + "M");
        System.out.printf(Locale.ROOT, "PTY capture throughput, %d MB of command output, median of %d interleaved rounds%n",
                MB, ROUNDS);
        System.out.printf(Locale.ROOT, "%-20s %-14s %8s %8s %10s %12s%n", "workload", "path", "wall s", "MB/s",
                "JVM CPU s", "capture MB");
        for (var w : workloads.entrySet()) {
            Map<String, List<Run>> runs = new LinkedHashMap<>();
            String[] paths = {"script", "pty4j", "plain"};
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < paths.length; i++) {
                    String path = paths[(i + round) % paths.length];
                    SessionSpec spec = SessionSpec.shell(w.getValue()).shell(Path.of("/bin/sh")).cwd(dir)
                            .pty(!path.equals("plain")).build();
                    Run r = run(spec, (capture, status) -> switch (path) {
                        case "script" -> script.launch(spec, null, "RUNBOARD_SESSION=bench", capture, status);
                        case "pty4j" -> pty4j.launch(spec, null, "RUNBOARD_SESSION=bench", capture, status);
                        default -> plain.launch(spec, null, false, "RUNBOARD_SESSION=bench", capture, status);
                    });
                    runs.computeIfAbsent(path, k -> new ArrayList<>()).add(r);
                }
            }
            for (String path : paths) {
                List<Run> rs = runs.get(path);
                double wall = median(rs.stream().mapToDouble(Run::seconds).toArray());
                double cpu = median(rs.stream().mapToDouble(Run::jvmCpuSeconds).toArray());
                System.out.printf(Locale.ROOT, "%-20s %-14s %8.2f %8.1f %10.2f %12.1f%n", w.getKey(), path, wall, MB / wall,
                        cpu, rs.get(0).captureBytes() / 1048576.0);
            }
            assertEquals(runs.get("script").get(0).captureBytes(), runs.get("pty4j").get(0).captureBytes(),
                    "both PTY paths capture the same bytes");
        }
    }

    private interface Launch {
        Process start(Path capture, Path status) throws Exception;
    }

    private Run run(SessionSpec spec, Launch launch) throws Exception {
        Path capture = Files.createTempFile(dir, "capture", ".log");
        Path status = dir.resolve("status");
        Files.deleteIfExists(status);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Process p = launch.start(capture, status);
        p.onExit().get(10, TimeUnit.MINUTES);
        long t1 = System.nanoTime();
        long cpu1 = os.getProcessCpuTime();
        long size = Files.size(capture);
        Files.delete(capture);
        return new Run((t1 - t0) / 1e9, (cpu1 - cpu0) / 1e9, size);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s[s.length / 2];
    }
}
