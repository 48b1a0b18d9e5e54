package dev.runboard.process;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/** Session ids that sort by start time and are safe as file names: {@code 20261129-191512-3f9a0c}. */
public final class SessionIds {
    private SessionIds() {
    }

    public static String next(Clock clock) {
        // Not SecureRandom: starting it (security providers, a seed read from /dev/urandom) was a visible part of
        // a short exec's start (docs/BENCHMARKS.md §10). The suffix only has to differ between sessions started
        // in the same second; ThreadLocalRandom, seeded from the clock's nanoseconds per JVM, does that.
        int r = java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 24);
        // The stamp by hand, not through a DateTimeFormatter: parsing its pattern and formatting through it
        // ran before every exec's launch (docs/BENCHMARKS.md §10). Years 1000-9999, as the pattern gave them.
        LocalDateTime t = LocalDateTime.ofEpochSecond(clock.instant().getEpochSecond(), 0, ZoneOffset.UTC);
        char[] id = new char[22];
        digits(id, 0, t.getYear(), 4);
        digits(id, 4, t.getMonthValue(), 2);
        digits(id, 6, t.getDayOfMonth(), 2);
        id[8] = '-';
        digits(id, 9, t.getHour(), 2);
        digits(id, 11, t.getMinute(), 2);
        digits(id, 13, t.getSecond(), 2);
        id[15] = '-';
        for (int i = 0; i < 6; i++) {
            id[16 + i] = Character.forDigit((r >> (20 - 4 * i)) & 0xf, 16);
        }
        return new String(id);
    }

    private static void digits(char[] into, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            into[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
