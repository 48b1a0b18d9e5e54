package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HumanBytesTest {

    @Test
    void decimalUnits() {
        assertEquals("999 B", HumanBytes.of(999));
        assertEquals("1.5 KB", HumanBytes.of(1500));
        assertEquals("100 MB", HumanBytes.of(100_000_000));
    }

    /** Written without a Formatter (its first use loads the locale data), and exactly as one writes it. */
    @Test
    void whatTheFormatterWouldWrite() {
        for (long n = 1000; n < 3_000_000; n += 7) {
            assertEquals(formatted(n), HumanBytes.of(n), n + " bytes");
        }
        for (long n : new long[] {1049, 1050, 1150, 1250, 9949, 9950, 9999, 10_000, 99_500, 999_499, 999_500, 999_999,
                1_073_741_824L, 5_368_709_120L, 999_950_000_000_000L, Long.MAX_VALUE}) {
            assertEquals(formatted(n), HumanBytes.of(n), n + " bytes");
        }
        for (double v : new double[] {0.05, 0.15, 0.25, 1.15, 2.675, 9.95, 99.5, 999.5, 0.0, 1e7, 123456789.5}) {
            for (int decimals = 0; decimals <= 1; decimals++) {
                assertEquals(String.format(java.util.Locale.ROOT, "%." + decimals + "f", v), HumanBytes.fixed(v, decimals), v + "");
            }
        }
    }

    private static String formatted(long bytes) {
        String[] units = {"KB", "MB", "GB", "TB"};
        double v = bytes;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format(java.util.Locale.ROOT, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
    }
}
