package dev.runboard.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Time since the kernel started this process, for the start-up report. Not from
 * {@code ProcessHandle.info().startInstant()}: on Linux that adds the start ticks to /proc/stat's
 * {@code btime}, which the kernel gives in whole seconds, so the instant is early by the boot time's
 * fraction of a second and every figure measured from it is late by the same amount (0.42 s on the
 * boot where this was found; anything from 0 to 1 s on another). Both figures used here count from
 * the boot itself: the process's start in /proc/self/stat (10 ms ticks) and /proc/uptime (10 ms),
 * read once; {@link System#nanoTime()} carries it on from there.
 */
final class ProcessClock {
    /** The kernel's clock ticks per second as /proc shows them (USER_HZ, 100 on every Linux ABI). */
    private static final int USER_HZ = 100;

    private final long millisAtOrigin;
    private final long originNanos;

    private ProcessClock(long millisAtOrigin, long originNanos) {
        this.millisAtOrigin = millisAtOrigin;
        this.originNanos = originNanos;
    }

    /**
     * A clock running from now, counted from this process's start, or from the start of the JVM that opened
     * this window in this one (dev.runboard.WindowRelaunch: a bare {@code java -jar}), which is when the user
     * asked for it. Where /proc cannot be read, it falls back to ProcessHandle's start instant.
     */
    static ProcessClock start() {
        return start(System.getProperty("runboard.relaunchedFrom", "self"));
    }

    static ProcessClock start(String pid) {
        long nanos = System.nanoTime();
        try {
            long uptimeMillis = Math.round(Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]) * 1000);
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            return new ProcessClock(uptimeMillis - startTicks(stat) * 1000 / USER_HZ, nanos);
        } catch (IOException | RuntimeException e) {
            long sinceStart = ProcessHandle.current().info().startInstant()
                    .map(start -> Duration.between(start, Instant.now()).toMillis()).orElse(-1L);
            return new ProcessClock(sinceStart, nanos);
        }
    }

    /**
     * The start time field (the 22nd) of a /proc/PID/stat line. The command name (the 2nd, in
     * parentheses) may hold spaces and parentheses itself, so fields are counted after its last ')'.
     */
    static long startTicks(String stat) {
        String[] afterName = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(afterName[22 - 3]);
    }

    long millisSinceStart() {
        return millisAtOrigin < 0 ? -1 : millisAtOrigin + (System.nanoTime() - originNanos) / 1_000_000;
    }
}
