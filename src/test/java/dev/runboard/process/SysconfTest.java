package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The clock tick rate and page size read from the auxiliary vector are those {@code getconf} reports. */
class SysconfTest {
    @Test
    void auxiliaryVectorAgreesWithGetconf() throws Exception {
        assertEquals(getconf("CLK_TCK"), ResourceSampler.Sysconf.CLOCK_TICKS);
        assertEquals(getconf("PAGESIZE"), ResourceSampler.Sysconf.PAGE_SIZE);
    }

    private static long getconf(String name) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("getconf", name).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "getconf " + name + " did not end");
            assertEquals(0, p.exitValue(), "getconf " + name + ": " + out);
            return Long.parseLong(out);
        } finally {
            p.destroyForcibly();
        }
    }
}
