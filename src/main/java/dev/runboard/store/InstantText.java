package dev.runboard.store;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Reads the text {@link Instant#toString} writes ({@code 2026-12-02T13:34:04.5Z}: a four-digit year,
 * seconds, up to nine fraction digits, UTC) without {@code DateTimeFormatter}: {@link Instant#parse}
 * took 355 ms for a history's 20,000 instants in a fresh JVM, and 196 ms warm, most of what reading
 * 10,000 rows cost (docs/BENCHMARKS.md §14). Any other text (an offset, a leap second, a lower-case
 * letter, a five-digit year) is not read here; InstantTextTest holds the two side by side.
 */
final class InstantText {
    private InstantText() {
    }

    /** The instant of {@code t} when it is in {@link Instant#toString}'s form (what {@link Instant#parse} gives), else null. */
    static Instant canonical(String t) {
        int n = t.length();
        if (n < 20 || t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != 'T' || t.charAt(13) != ':'
                || t.charAt(16) != ':' || t.charAt(n - 1) != 'Z') {
            return null;
        }
        int year = digits(t, 0, 4);
        int month = digits(t, 5, 7);
        int day = digits(t, 8, 10);
        int hour = digits(t, 11, 13);
        int minute = digits(t, 14, 16);
        int second = digits(t, 17, 19);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null; // a leap second and anything out of range
        }
        int nanos = 0;
        if (n > 20) {
            int fraction = n - 21;
            if (t.charAt(19) != '.' || fraction < 1 || fraction > 9) {
                return null;
            }
            int digits = digits(t, 20, n - 1);
            if (digits < 0) {
                return null;
            }
            nanos = digits;
            for (int i = fraction; i < 9; i++) {
                nanos *= 10;
            }
        }
        try {
            long day0 = LocalDate.of(year, month, day).toEpochDay();
            return Instant.ofEpochSecond(day0 * 86_400 + hour * 3600L + minute * 60L + second, nanos);
        } catch (DateTimeException e) {
            return null; // February 30th
        }
    }

    /** The decimal number of {@code t[from, to)}, or -1 when a character there is not an ASCII digit. */
    private static int digits(String t, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
