package dev.runboard.session;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one size grammar of runboard (DESIGN.md, "Contract"): a bare number is bytes; {@code K},
 * {@code M}, {@code G}, {@code T} are KiB, MiB, GiB, TiB ({@code 500M}, {@code 1.5G}), also
 * written {@code KiB}/{@code KB}, in any case; and sizes are printed in those binary units too
 * ({@code 50M} prints as {@code 50 MiB}, not as "52 MB"). Every size runboard prints goes through
 * here, the output's and an artifact's as well as limits: the table once said KB where History said
 * KiB for the same bytes.
 */
public final class Sizes {
    public static final long KIB = 1L << 10;
    public static final long MIB = 1L << 20;
    public static final long GIB = 1L << 30;
    public static final long TIB = 1L << 40;
    public static final long PIB = 1L << 50;

    /** Compiled on first use: exec parses its default preview size ("65536") on every run (see {@link Durations}). */
    private static final class Grammar {
        static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(?:([kmgt])(?:i?b)?|b)?");
    }
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    private static final String GRAMMAR = "write e.g. 500M or 2G: K, M, G, T are KiB, MiB, GiB, TiB; a bare number is bytes";

    private Sizes() {
    }

    /** Whether the text is written in this grammar (whatever its amount). */
    public static boolean isSize(String text) {
        return text != null && !text.isBlank() && Grammar.SIZE.matcher(text.strip().toLowerCase(Locale.ROOT)).matches();
    }

    /**
     * Parses a size in bytes (a fraction of a byte is rounded).
     *
     * @throws IllegalArgumentException with a sentence for people: not a size, or more than {@link Long#MAX_VALUE} bytes
     */
    public static long parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.length() <= 18 && digitsOnly(t)) {
            return Long.parseLong(t); // a bare number of bytes, as the grammar reads it
        }
        Matcher m = Grammar.SIZE.matcher(t);
        if (t.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("'" + (text == null ? "" : text.strip()) + "' is not a size (" + GRAMMAR + ")");
        }
        int shift = m.group(2) == null ? 0 : 10 * ("kmgt".indexOf(m.group(2)) + 1);
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(1L << shift)).setScale(0, RoundingMode.HALF_UP);
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("'" + text.strip() + "' is too large for a size");
        }
        return bytes.longValueExact();
    }

    /** Whether the text is one or more ASCII digits and nothing else. */
    static boolean digitsOnly(String t) {
        if (t.isEmpty()) {
            return false;
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * The size in the largest binary unit it has at least one of: {@code 50 MiB}, {@code 1.5 GiB},
     * {@code 512 KiB}, {@code 800 B}; exact amounts without decimals, others with one (rounded).
     */
    public static String format(long bytes) {
        if (bytes < 0) {
            return "-" + format(bytes == Long.MIN_VALUE ? Long.MAX_VALUE : -bytes);
        }
        int u = 0;
        while (u < UNITS.length - 1 && bytes >= 1L << (10 * (u + 1))) {
            u++;
        }
        long unit = 1L << (10 * u);
        if (bytes % unit == 0) {
            return bytes / unit + " " + UNITS[u];
        }
        BigDecimal v = BigDecimal.valueOf(bytes).divide(BigDecimal.valueOf(unit), 1, RoundingMode.HALF_UP);
        if (v.compareTo(BigDecimal.valueOf(1024)) >= 0 && u < UNITS.length - 1) {
            v = BigDecimal.ONE; // 1023.96 KiB rounds up to the next unit
            u++;
        }
        return v.stripTrailingZeros().toPlainString() + " " + UNITS[u];
    }

    /**
     * The size exactly, for a message that must not round: in the largest binary unit it is a
     * whole number of ({@code 1025 TiB}, {@code 1536 KiB}), else in bytes ({@code 1048575 B}).
     */
    public static String formatExact(long bytes) {
        for (int u = UNITS.length - 1; u > 0; u--) {
            long unit = 1L << (10 * u);
            if (bytes != 0 && bytes % unit == 0) {
                return bytes / unit + " " + UNITS[u];
            }
        }
        return bytes + " " + UNITS[0];
    }

    /** The short form {@link #parse} reads back exactly when the size is a whole number of its unit: {@code 50M}, {@code 2G}, else bytes. */
    public static String formatShort(long bytes) {
        String[] letters = {"", "K", "M", "G", "T"};
        for (int u = letters.length - 1; u > 0; u--) {
            long unit = 1L << (10 * u);
            if (bytes != 0 && bytes % unit == 0) {
                return bytes / unit + letters[u];
            }
        }
        return String.valueOf(bytes);
    }
}
