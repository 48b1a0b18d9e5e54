package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.ProcessTreeSnapshot;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The usage frames of a host's poll, read into the local sampler's terms (no ssh needed). */
class TreeUsageFramesTest {
    private static final Map<String, Long> LEADERS = Map.of("s1", 100L, "s2", 200L);

    @Test
    void cpuIsTicksOverTheHostsOwnUptimeBetweenFramesAndTheTreeSumsItsProcesses() {
        TreeUsageFrames usage = new TreeUsageFrames(100, 4096);
        assertNull(usage.of("s1"), "nothing before the first frame");
        usage.read("uptime 1000.00\n"
                + "p s1 100 1 100 S 90000 0 0 100 perl runboard-wrap.pl status 0 2000 sh -c busy\n"
                + "p s1 101 100 100 R 90000 500 0 50 yes\n"
                + "p s1 102 77 77 S 95000 0 0 25 daemon --escaped\n", LEADERS);
        ResourceSampler.Usage first = usage.of("s1");
        // Seen for the first time: its lifetime average (5 s of CPU over the 100 s since it started).
        assertEquals(5.0, first.cpuPercent(), 0.01);
        assertEquals((100 + 50 + 25) * 4096L, first.rssBytes());
        assertEquals(3, first.processCount());
        ProcessTreeSnapshot.Node escaped = first.tree().nodes().stream().filter(n -> n.pid() == 102).findFirst().orElseThrow();
        assertTrue(escaped.escapedGroup(), "a tagged process outside the leader's group is marked so");
        assertEquals("daemon --escaped", escaped.command());
        assertEquals(0, usage.of("s2").processCount(), "a polled session with no process found has an empty tree");

        usage.read("uptime 1002.00\n"
                + "p s1 100 1 100 S 90000 0 0 100 perl runboard-wrap.pl\n"
                + "p s1 101 100 100 R 90000 650 0 50 yes\n", LEADERS);
        ResourceSampler.Usage second = usage.of("s1");
        assertEquals(75.0, second.cpuPercent(), 0.01, "150 ticks in 2 s of the host's clock: 75 % of a core");
        assertEquals(2, second.processCount(), "the daemon has ended");
        assertFalse(second.tree().allStopped());
    }

    @Test
    void aPidReusedByAnotherProcessStartsFromItsOwnAverage() {
        TreeUsageFrames usage = new TreeUsageFrames(100, 4096);
        usage.read("uptime 1000.00\np s1 101 100 100 R 90000 500 0 50 yes\n", LEADERS);
        usage.read("uptime 1001.00\np s1 101 100 100 T 100000 100 0 50 yes\n", LEADERS);
        assertEquals(100.0, usage.of("s1").cpuPercent(), 0.01, "100 ticks over its 1 s of life, not 100 - 500");
        assertTrue(usage.of("s1").tree().allStopped(), "stopped on the host: the session reads paused");
    }
}
