package dev.runboard.process;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/** Session ids that sort by start time and are safe as file names: {@code 20261129-191512-3f9a0c}. */
public final class SessionIds {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private SessionIds() {
    }

    public static String next(Clock clock) {
        // Not SecureRandom: starting it (security providers, a seed read from /dev/urandom) was a visible part of
        // a short exec's start (docs/BENCHMARKS.md §10). The suffix only has to differ between sessions started
        // in the same second; ThreadLocalRandom, seeded from the clock's nanoseconds per JVM, does that.
        int r = java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 24);
        return STAMP.format(clock.instant()) + "-" + HexFormat.of().toHexDigits((byte) (r >> 16))
                + HexFormat.of().toHexDigits((byte) (r >> 8)) + HexFormat.of().toHexDigits((byte) r);
    }
}
