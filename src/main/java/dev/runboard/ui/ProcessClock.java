package dev.runboard.ui;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.LongFunction;

/**
 * Time since the kernel started this process, for the start-up report. Not from
 * {@code ProcessHandle.info().startInstant()}: on Linux that adds the start ticks to /proc/stat's
 * {@code btime}, which the kernel gives in whole seconds, so the instant is early by the boot time's
 * fraction of a second and every figure measured from it is late by the same amount (0.42 s on the
 * boot where this was found; anything from 0 to 1 s on another). The start is read once, counted from
 * the boot (/proc/PID/stat against /proc/uptime); {@link System#nanoTime()} carries it on from there.
 */
final class ProcessClock {
    private final long millisAtOrigin;
    private final long originNanos;

    private ProcessClock(long millisAtOrigin, long originNanos) {
        this.millisAtOrigin = millisAtOrigin;
        this.originNanos = originNanos;
    }

    /**
     * A clock running from now, counted from this process's start, or from the start of the JVM that opened
     * this window in this one (dev.runboard.WindowRelaunch: a bare {@code java -jar}), which is when the user
     * asked for it. Where the start cannot be read, it falls back to ProcessHandle's start instant.
     *
     * @param millisSinceStart how long ago the kernel started a process, by pid (the composition root passes
     *     {@link dev.runboard.process.LinuxProcesses#millisSinceStart}: the ui reads no /proc itself)
     */
    static ProcessClock start(LongFunction<OptionalLong> millisSinceStart) {
        long nanos = System.nanoTime();
        long pid = Long.getLong("runboard.relaunchedFrom", ProcessHandle.current().pid());
        long sinceStart = millisSinceStart.apply(pid).orElseGet(() -> ProcessHandle.current().info().startInstant()
                .map(start -> Duration.between(start, Instant.now()).toMillis()).orElse(-1L));
        return new ProcessClock(sinceStart, nanos);
    }

    long millisSinceStart() {
        return millisAtOrigin < 0 ? -1 : millisAtOrigin + (System.nanoTime() - originNanos) / 1_000_000;
    }
}
