package dev.runboard.session;

import java.util.Locale;

/**
 * A byte count as people read it: {@code 1536} as "1.5 KB", in decimal units as file managers show
 * file sizes (the output's size, an artifact's, the free space left). Sizes a person gives runboard
 * as limits are read and printed in binary units by {@link Sizes} instead.
 */
public final class HumanBytes {
    private HumanBytes() {
    }

    /** 1536 → "1.5 KB"; decimal units, as file managers show them. */
    public static String of(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double v = bytes;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return fixed(v, v < 10 ? 1 : 0) + " " + units[u];
    }

    /**
     * {@code String.format(Locale.ROOT, "%.Nf", v)} for N of 0 or 1, without a {@code Formatter}: its
     * first use loads the locale data (~30 ms), and a finished exec's omission marker asks for one
     * (docs/BENCHMARKS.md §10, round 5). The Formatter rounds the shortest decimal form of {@code v}
     * ({@link Double#toString}) half up, and so does this; OutputPreviewTest compares the two.
     */
    static String fixed(double v, int decimals) {
        String shortest = Double.toString(v);
        int dot = shortest.indexOf('.');
        if (v < 0 || decimals < 0 || decimals > 1 || dot < 0 || shortest.indexOf('E') >= 0) {
            return String.format(Locale.ROOT, "%." + decimals + "f", v);
        }
        String fraction = shortest.substring(dot + 1);
        StringBuilder digits = new StringBuilder(shortest.substring(0, dot));
        for (int i = 0; i < decimals; i++) {
            digits.append(i < fraction.length() ? fraction.charAt(i) : '0');
        }
        if (fraction.length() > decimals && fraction.charAt(decimals) >= '5') {
            int i = digits.length() - 1;
            while (i >= 0 && digits.charAt(i) == '9') {
                digits.setCharAt(i--, '0');
            }
            if (i < 0) {
                digits.insert(0, '1');
            } else {
                digits.setCharAt(i, (char) (digits.charAt(i) + 1));
            }
        }
        if (decimals > 0) {
            digits.insert(digits.length() - decimals, '.');
        }
        return digits.toString();
    }
}
