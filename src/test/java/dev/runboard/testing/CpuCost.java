package dev.runboard.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * What each test class costs the machine in CPU, to find what makes the suite slow: with
 * {@code -Drunboard.cpu.report=FILE -Dtest.forks=1} every class appends a line to FILE with its
 * wall time and the CPU the whole machine spent meanwhile (from /proc/stat: the supervisors, shells
 * and CLIs a test starts count with it, which its own JVM's CPU time would leave out). With one fork
 * and nothing else running, that is the class's cost; the suite's wall time on two cores is about
 * the sum over two. Off (no property): does nothing.
 */
public final class CpuCost implements TestExecutionListener {
    private static final String REPORT = System.getProperty("runboard.cpu.report");
    private static final long TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the project runs on

    private long startNanos;
    private long startTicks;

    @Override
    public void executionStarted(TestIdentifier test) {
        if (REPORT != null && isClass(test)) {
            startNanos = System.nanoTime();
            startTicks = busyTicks();
        }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (REPORT == null || !isClass(test)) {
            return;
        }
        double wall = (System.nanoTime() - startNanos) / 1e9;
        double cpu = (busyTicks() - startTicks) / (double) TICKS_PER_SECOND;
        String line = String.format(Locale.ROOT, "%.1f %.1f %s%n", cpu, wall, test.getLegacyReportingName());
        try {
            Files.writeString(Path.of(REPORT), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static boolean isClass(TestIdentifier test) {
        return test.isContainer() && test.getSource().map(s -> s instanceof org.junit.platform.engine.support.descriptor.ClassSource)
                .orElse(false);
    }

    /** Every CPU's time not idle nor waiting on I/O, in ticks: the first line of /proc/stat. */
    private static long busyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                if (i != 4 && i != 5) { // idle, iowait
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
