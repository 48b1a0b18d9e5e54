package dev.runboard.ui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.LinuxProcesses;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class ProcessClockTest {
    @Test
    void countsFromTheProcessStartNotFromAWholeSecondBefore() {
        // The JVM's own uptime starts when it was created, a little after the process started: the
        // clock must not be behind it, nor ahead by the most a JVM takes to get going on a busy machine.
        // ProcessHandle's start instant was ahead by up to a second (btime is in whole seconds).
        long jvmUptime = ManagementFactory.getRuntimeMXBean().getUptime();
        long sinceStart = ProcessClock.start(LinuxProcesses::millisSinceStart).millisSinceStart();
        long jvmUptimeAfter = ManagementFactory.getRuntimeMXBean().getUptime();

        assertTrue(sinceStart >= jvmUptime - 20, sinceStart + " ms since start, JVM up " + jvmUptime + " ms");
        assertTrue(sinceStart <= jvmUptimeAfter + 1000, sinceStart + " ms since start, JVM up " + jvmUptimeAfter + " ms");
    }
}
