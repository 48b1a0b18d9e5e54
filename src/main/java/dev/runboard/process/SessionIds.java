package dev.runboard.process;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/** Session ids that sort by start time and are safe as file names: {@code 20261129-191512-3f9a0c}. */
public final class SessionIds {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final SecureRandom RANDOM = new SecureRandom();

    private SessionIds() {
    }

    public static String next(Clock clock) {
        byte[] r = new byte[3];
        RANDOM.nextBytes(r);
        return STAMP.format(clock.instant()) + "-" + HexFormat.of().formatHex(r);
    }
}
