package dev.runboard.session;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration grammar of runboard (DESIGN.md, "Contract"), for the CLI, the dialog,
 * {@code runboard.yaml} and settings alike: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h30m},
 * and days, {@code 2d}, since the longest limits are said in days ("at most 365 days"); a bare
 * number is seconds ({@code 30}, {@code 1.5}). Parts go from the largest unit to the
 * smallest, each at most once, optionally separated by spaces ({@code 1h 30m}); any part may have
 * a decimal fraction ({@code 1.5h}); case does not matter. ISO-8601 ({@code PT30S}), as Java
 * writes durations, is read too. Durations are whole milliseconds (finer fractions are rounded)
 * and never negative.
 *
 * <p>This parser knows no ranges beyond {@link #LONGEST}, which keeps every parsed duration safe
 * for {@link Duration#toNanos()}; the ranges of each field are {@link SessionSpec}'s.
 */
public final class Durations {
    /** The longest duration {@link #parse} accepts: far beyond any field's range, and well inside {@code toNanos()}. */
    public static final Duration LONGEST = Duration.ofDays(100 * 365);

    /**
     * Compiled on first use, not with this class: exec parses its default grace ("2") on every run,
     * and compiling these cost it ~5 ms before its command started (docs/BENCHMARKS.md §10, round 5).
     */
    private static final class Grammar {
        static final Pattern BARE = Pattern.compile("\\d+(?:\\.\\d+)?");
        static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|d|h|m|s)\\s*");
    }
    private static final String[] UNITS = {"d", "h", "m", "s", "ms"};
    private static final long[] UNIT_MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L};
    private static final String GRAMMAR = "write e.g. 500ms, 30s, 5m, 1h30m or 2d; a bare number is seconds";

    private Durations() {
    }

    /**
     * Parses a duration.
     *
     * @throws IllegalArgumentException with a sentence for people: empty, negative, not a duration, or too long
     */
    public static Duration parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.isEmpty()) {
            throw new IllegalArgumentException("empty duration (" + GRAMMAR + ")");
        }
        if (t.startsWith("-")) {
            throw new IllegalArgumentException("'" + text.strip() + "' is negative: a duration cannot be");
        }
        Duration d;
        if (t.length() <= 9 && Sizes.digitsOnly(t)) {
            long millis = Long.parseLong(t) * 1000; // a bare whole number of seconds, as the BARE branch reads it
            if (millis > LONGEST.toMillis()) {
                throw tooLong(text);
            }
            d = Duration.ofMillis(millis);
        } else if (Grammar.BARE.matcher(t).matches()) {
            d = ofMillis(new BigDecimal(t).multiply(BigDecimal.valueOf(1000)), text);
        } else if (t.startsWith("p")) {
            d = iso(t, text);
        } else {
            d = ofMillis(partsInMillis(t, text), text);
        }
        return d;
    }

    /** As {@link #parse}, but blank (or null) text means "none" and gives null: for optional fields. */
    public static Duration parseOptional(String text) {
        return text == null || text.isBlank() ? null : parse(text);
    }

    private static BigDecimal partsInMillis(String t, String text) {
        Matcher m = Grammar.PART.matcher(t);
        BigDecimal millis = BigDecimal.ZERO;
        int end = 0;
        int lastUnit = -1;
        while (end < t.length()) {
            if (!m.find(end) || m.start() != end) {
                throw notADuration(text);
            }
            int unit = unitIndex(m.group(2));
            if (unit <= lastUnit) {
                throw new IllegalArgumentException("'" + text.strip() + "' is not a duration: give each unit once,"
                        + " largest first (e.g. 1d12h, 1h30m, 2m30s)");
            }
            lastUnit = unit;
            millis = millis.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(UNIT_MILLIS[unit])));
            end = m.end();
        }
        return millis;
    }

    private static int unitIndex(String unit) {
        for (int i = 0; i < UNITS.length; i++) {
            if (UNITS[i].equals(unit)) {
                return i;
            }
        }
        throw new IllegalStateException("the pattern only matches known units");
    }

    private static Duration iso(String t, String text) {
        Duration d;
        try {
            d = Duration.parse(t.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException | ArithmeticException e) {
            throw notADuration(text);
        }
        if (d.isNegative()) {
            throw new IllegalArgumentException("'" + text.strip() + "' is negative: a duration cannot be");
        }
        if (d.compareTo(LONGEST) > 0) {
            throw tooLong(text);
        }
        return Duration.ofMillis(d.toMillis());
    }

    private static Duration ofMillis(BigDecimal millis, String text) {
        BigDecimal whole = millis.setScale(0, RoundingMode.HALF_UP);
        if (whole.compareTo(BigDecimal.valueOf(LONGEST.toMillis())) > 0) {
            throw tooLong(text);
        }
        return Duration.ofMillis(whole.longValueExact());
    }

    private static IllegalArgumentException notADuration(String text) {
        return new IllegalArgumentException("'" + text.strip() + "' is not a duration (" + GRAMMAR + ")");
    }

    private static IllegalArgumentException tooLong(String text) {
        return new IllegalArgumentException("'" + text.strip() + "' is too long for a duration (at most 100 years)");
    }

    /**
     * The short form that {@link #parse} reads back to the same duration: {@code 1h30m}, {@code 45s},
     * {@code 48h}, {@code 0s}; with a fraction of a second, whole milliseconds ({@code 1500ms}).
     * Null gives the empty string (an optional field left empty).
     */
    public static String format(Duration d) {
        if (d == null) {
            return "";
        }
        if (d.isNegative()) {
            return "-" + format(d.negated());
        }
        if (d.getNano() != 0) {
            BigDecimal millis = BigDecimal.valueOf(d.getSeconds()).multiply(BigDecimal.valueOf(1000))
                    .add(BigDecimal.valueOf(d.getNano(), 6)).setScale(0, RoundingMode.HALF_UP);
            return millis.toPlainString() + "ms";
        }
        if (d.isZero()) {
            return "0s";
        }
        StringBuilder sb = new StringBuilder();
        long h = d.toHours();
        if (h > 0) {
            sb.append(h).append('h');
        }
        if (d.toMinutesPart() > 0) {
            sb.append(d.toMinutesPart()).append('m');
        }
        if (d.toSecondsPart() > 0) {
            sb.append(d.toSecondsPart()).append('s');
        }
        return sb.toString();
    }

    /** For messages: {@link #format}, but whole days and hours in words ("365 days", "1 hour"), as limits are chosen. */
    public static String describe(Duration d) {
        if (d == null || d.isZero() || d.isNegative() || d.getNano() != 0) {
            return format(d);
        }
        if (d.getSeconds() % 86_400 == 0) {
            return plural(d.toDays(), "day");
        }
        if (d.getSeconds() % 3600 == 0) {
            return plural(d.toHours(), "hour");
        }
        return format(d);
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
