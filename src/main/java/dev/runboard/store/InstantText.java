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

    /**
     * {@link Instant#toString}'s text, written without {@code DateTimeFormatter}, whose start (its
     * class initialisation, its printer chain, interpreted) cost an exec ~3 ms of CPU while its
     * command ran, for the first record's start time (docs/BENCHMARKS.md §10, round 14). Years
     * outside 0000-9999, which that text writes with a sign or more digits, are left to it.
     */
    static String format(Instant i) {
        long seconds = i.getEpochSecond();
        long days = Math.floorDiv(seconds, 86_400);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400);
        // The civil date of a day count (H. Hinnant's days_from_civil, inverted), in 400-year eras from 0000-03-01.
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long shiftedMonth = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
        int month = (int) (shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        if (year < 0 || year > 9999) {
            return i.toString();
        }
        char[] text = new char[30];
        int n = put(text, 0, (int) year, 4);
        text[n++] = '-';
        n = put(text, n, month, 2);
        text[n++] = '-';
        n = put(text, n, day, 2);
        text[n++] = 'T';
        n = put(text, n, secondOfDay / 3600, 2);
        text[n++] = ':';
        n = put(text, n, secondOfDay / 60 % 60, 2);
        text[n++] = ':';
        n = put(text, n, secondOfDay % 60, 2);
        int nanos = i.getNano();
        if (nanos > 0) { // in groups of three digits, as many as it takes
            text[n++] = '.';
            n = nanos % 1_000_000 == 0 ? put(text, n, nanos / 1_000_000, 3)
                    : nanos % 1000 == 0 ? put(text, n, nanos / 1000, 6) : put(text, n, nanos, 9);
        }
        text[n++] = 'Z';
        return new String(text, 0, n);
    }

    /** Writes {@code value} as {@code width} decimal digits at {@code at}; returns where they end. */
    private static int put(char[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            text[i] = (char) ('0' + value % 10);
            value /= 10;
        }
        return at + width;
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
