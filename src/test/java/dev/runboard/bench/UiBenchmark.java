package dev.runboard.bench;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.PulseGaps;
import dev.runboard.ui.RecordingDesktop;
import dev.runboard.ui.Theme;
import dev.runboard.ui.UiSettings;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.concurrent.Worker;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 5 benchmarks #2–#4 on the real window (headless Monocle, as the tests run):
 * UI smoothness under 20 floods, poll cost and idle CPU with 1,000 sessions, memory with 1,000
 * finished 64 KiB previews. Each prints its figure and a baseline from the same run.
 * {@code ./mvnw -B -Pbench test -Dtest=UiBenchmark -Dbench.rounds=3} (bench/ui.sh).
 */
@Tag("bench")
@ExtendWith(ApplicationExtension.class)
class UiBenchmark {
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    private static final String FLOOD = "yes $'\\e[32mok\\e[0m building module with a fairly long line of output' | head -c 2G";

    @TempDir
    Path dataDir;
    @TempDir
    Path workDir;

    private SessionEngine engine;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        Platform.setImplicitExit(false);
        engine = SessionEngine.forDataDir(dataDir);
        window = MainWindow.create(stage, engine, new UiSettings(UiSettings.DEFAULT_POLL, false, false), new RecordingDesktop(), new Theme(false));
        window.show();
    }

    @AfterEach
    void stop() throws Exception {
        engine.killAll(Duration.ofSeconds(1));
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> window.close());
        engine.close();
    }

    // ---- #2 UI smoothness ----

    @Test
    void smoothnessUnder20Floods(FxRobot robot) throws Exception {
        System.out.printf("#2 UI smoothness: 20 x `%s`, pulse gaps over 3 s, %d rounds each, interleaved%n", FLOOD, ROUNDS);
        List<double[]> cand = new ArrayList<>();
        List<double[]> base = new ArrayList<>();
        for (int r = 0; r < ROUNDS; r++) {
            base.add(floodRound(robot, false, r));
            cand.add(floodRound(robot, true, r));
        }
        report("baseline (same 20 floods by plain ProcessBuilder, idle window)", base);
        report("runboard (20 sessions in the window, a flooding one selected)", cand);
    }

    private double[] floodRound(FxRobot robot, boolean inWindow, int round) throws Exception {
        Path dir = Files.createDirectories(workDir.resolve((inWindow ? "w" : "b") + round));
        List<Process> plain = new ArrayList<>();
        List<Session> sessions = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            if (inWindow) {
                sessions.add(engine.start(SessionSpec.shell(FLOOD).cwd(dir).build()));
            } else {
                plain.add(new ProcessBuilder("bash", "-c", FLOOD).redirectErrorStream(true)
                        .redirectOutput(dir.resolve("out" + i).toFile()).start());
            }
        }
        if (inWindow) {
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().rows().size() >= 20));
            robot.interact(() -> robot.lookup(".session-table").queryAs(TableView.class).getSelectionModel().select(0));
        }
        PulseGaps gaps = new PulseGaps();
        robot.interact(gaps::start);
        long until = System.nanoTime() + 3_000_000_000L; // a 3 s window whatever the pulse rate
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> System.nanoTime() >= until);
        robot.interact(gaps::stop);
        long written = 0;
        if (inWindow) {
            engine.killAll(Duration.ZERO);
            for (Session s : sessions) {
                written += s.snapshot().outputBytes();
            }
            robot.interact(() -> new ArrayList<>(window.sessions().rows()).forEach(window.sessions()::remove));
        } else {
            for (Process p : plain) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
            }
            for (int i = 0; i < 20; i++) {
                written += Files.size(dir.resolve("out" + i));
            }
        }
        deleteTree(dir);
        deleteTree(dataDir.resolve("artifacts"));
        double[] fig = {gaps.percentile(50), gaps.percentile(99), gaps.max(), written / 1e9};
        System.out.printf(Locale.ROOT, "  round %d %-9s p50 %5.1f ms  p99 %6.1f ms  max %6.1f ms  (%d pulses, %.1f GB written)%n",
                round, inWindow ? "runboard" : "baseline", fig[0], fig[1], fig[2], gaps.count(), fig[3]);
        return fig;
    }

    private static void report(String what, List<double[]> rounds) {
        System.out.printf(Locale.ROOT, "  %s: median p99 %.1f ms, median max %.1f ms, median p50 %.1f ms%n",
                what, median(rounds, 1), median(rounds, 2), median(rounds, 0));
    }

    // ---- #3 poll cost and idle CPU ----

    @Test
    void pollCostWith1000SessionsAnd50RunningThenIdleCpu(FxRobot robot) throws Exception {
        System.out.printf("#3 poll cost: 950 finished + 50 running (`sleep 120`) sessions in the window%n");
        double idleEmpty = cpuPercent(10);
        startFinished(950, "echo done $RANDOM");
        for (int i = 0; i < 50; i++) {
            engine.start(SessionSpec.shell("sleep 120").cwd(workDir).build());
        }
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().rows().size() >= 1000
                && window.sessions().polledRowCount() == 50));
        // A tick: the poll task (worker) from RUNNING to SUCCEEDED, then applying on the FX thread
        // (SUCCEEDED to a runLater queued behind the applier).
        List<Double> task = new ArrayList<>();
        List<Double> apply = new ArrayList<>();
        AtomicLong runAt = new AtomicLong();
        robot.interact(() -> window.sessions().poller().stateProperty().addListener((o, was, now) -> {
            if (now == Worker.State.RUNNING) {
                runAt.set(System.nanoTime());
            } else if (now == Worker.State.SUCCEEDED && runAt.get() != 0) {
                long succ = System.nanoTime();
                task.add((succ - runAt.get()) / 1e6);
                Platform.runLater(() -> apply.add((System.nanoTime() - succ) / 1e6));
            }
        }));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(robot, () -> apply.size() >= 50));
        double[] t = fx(robot, () -> task.stream().mapToDouble(Double::doubleValue).sorted().toArray());
        double[] a = fx(robot, () -> apply.stream().mapToDouble(Double::doubleValue).sorted().toArray());
        System.out.printf(Locale.ROOT, "  %d ticks: poll task (worker) median %.2f ms p90 %.2f ms; apply on FX median %.2f ms p90 %.2f ms%n",
                t.length, pct(t, 50), pct(t, 90), pct(a, 50), pct(a, 90));
        engine.killAll(Duration.ZERO);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().polledRowCount() == 0));
        double idleFull = cpuPercent(10);
        System.out.printf(Locale.ROOT, "  idle CPU of the JVM over 10 s: %.2f %% of a core with 1,000 finished sessions; baseline (empty window, same JVM) %.2f %%%n",
                idleFull, idleEmpty);
    }

    // ---- #4 memory ----

    @Test
    void memoryWith1000Finished64KiBPreviewsAscii(FxRobot robot) throws Exception {
        memory(robot, "ASCII", "yes 'ascii line of build output 0123456789' | head -c 65536");
    }

    @Test
    void memoryWith1000Finished64KiBPreviewsNonAscii(FxRobot robot) throws Exception {
        memory(robot, "non-ASCII", "yes '\u2500\u2500 \u2713 \u00FCn\u00EFc\u00F6d\u00E9 \u65E5\u672C\u8A9E \u2500\u2500' | head -c 65536");
    }

    private void memory(FxRobot robot, String label, String command) throws Exception {
        long[] before = memoryNow();
        startFinished(1000, command);
        WaitForAsyncUtils.waitFor(180, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().rows().size() >= 1000
                && window.sessions().polledRowCount() == 0));
        robot.interact(() -> robot.lookup(".session-table").queryAs(TableView.class).getSelectionModel().select(0));
        WaitForAsyncUtils.waitForFxEvents();
        long[] after = memoryNow();
        System.out.printf(Locale.ROOT, "#4 memory, %s: 1,000 finished sessions of 64 KiB output: heap after GC %d MB, RSS %d MB;"
                + " baseline (same window before the sessions) heap %d MB, RSS %d MB%n",
                label, after[0] >> 20, after[1] >> 20, before[0] >> 20, before[1] >> 20);
    }

    // ---- helpers ----

    private void startFinished(int n, String command) throws Exception {
        List<Session> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(engine.start(SessionSpec.shell(command).cwd(workDir).build()));
            if (batch.size() == 50) {
                waitEnded(batch);
                batch.clear();
            }
        }
        waitEnded(batch);
    }

    private static void waitEnded(List<Session> batch) throws Exception {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                () -> batch.stream().noneMatch(s -> s.status() == dev.runboard.session.SessionStatus.RUNNING));
    }

    private static double cpuPercent(int seconds) throws Exception {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long c0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        WaitForAsyncUtils.sleep(seconds, TimeUnit.SECONDS); // measuring over a wall-clock window, not synchronising
        return 100.0 * (os.getProcessCpuTime() - c0) / (System.nanoTime() - t0);
    }

    private static long[] memoryNow() throws Exception {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long rss = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        return new long[] {heap, rss};
    }

    static double median(List<double[]> rounds, int i) {
        double[] v = rounds.stream().mapToDouble(r -> r[i]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static double pct(double[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100 * sorted.length) - 1)];
    }

    static void deleteTree(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    private static <T> T fx(FxRobot robot, Supplier<T> read) {
        AtomicReference<T> value = new AtomicReference<>();
        robot.interact(() -> value.set(read.get()));
        return value.get();
    }

    @SuppressWarnings("unused")
    private static String join(double[] v) {
        return Arrays.toString(v);
    }
}
