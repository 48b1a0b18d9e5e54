package dev.runboard.artifact;

/**
 * The comparison key of a line, computed without building a new string: the line as is, or (when
 * ignoring volatile text) with every number, timestamp, duration and hex address masked, so that
 * two Maven or pytest logs that differ only in timings compare equal. A run of hex digits that
 * holds at least one decimal digit ({@code 12}, {@code 0.35}, {@code 7ffe3a}, {@code 09:41:07}'s
 * parts) counts as one masked token, and so does a duration unit right after it ({@code 12ms},
 * {@code 0.35 s}); so does a hex run of 8 or more, or one right after {@code 0x} or {@code @} (an
 * address like {@code Cache@deadbeef}). Words such as {@code BUILD} or {@code added} stay.
 */
final class VolatileText {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final byte MASK = '#';
    private static final String[] UNITS = {"ms", "us", "ns", "min", "sec", "s", "m", "h"};

    private final boolean ignoreVolatile;
    /** The length of the last key hashed by {@link #hash}. */
    int keyLength;

    VolatileText(boolean ignoreVolatile) {
        this.ignoreVolatile = ignoreVolatile;
    }

    long hash(byte[] b, int from, int to) {
        long h = FNV_OFFSET;
        if (!ignoreVolatile) {
            for (int i = from; i < to; i++) {
                h = (h ^ (b[i] & 0xff)) * FNV_PRIME;
            }
            keyLength = to - from;
            return h;
        }
        int length = 0;
        int i = from;
        while (i < to) {
            if (isHex(b[i])) {
                int end = i;
                boolean digit = false;
                while (end < to && (isHex(b[end]) || (b[end] == '.' && end + 1 < to && isDigit(b[end + 1])))) {
                    digit |= isDigit(b[end]);
                    end++;
                }
                // An address or a hash may have no decimal digit: long runs, or runs after "0x" or "@", are masked too.
                boolean address = end - i >= 8 || (i > from && b[i - 1] == '@')
                        || (i - from >= 2 && b[i - 1] == 'x' && b[i - 2] == '0');
                if (digit || address) {
                    h = (h ^ MASK) * FNV_PRIME;
                    length++;
                    i = unitEnd(b, end, to);
                    continue;
                }
                for (; i < end; i++) {
                    h = (h ^ (b[i] & 0xff)) * FNV_PRIME;
                    length++;
                }
                continue;
            }
            h = (h ^ (b[i] & 0xff)) * FNV_PRIME;
            length++;
            i++;
        }
        keyLength = length;
        return h;
    }

    /** Past a duration unit that follows a number (after at most one space), else {@code at}. */
    private static int unitEnd(byte[] b, int at, int to) {
        int start = at < to && b[at] == ' ' ? at + 1 : at;
        for (String unit : UNITS) {
            int end = start + unit.length();
            if (end <= to && matches(b, start, unit) && (end == to || !isLetter(b[end]))) {
                return end;
            }
        }
        return at;
    }

    private static boolean matches(byte[] b, int at, String word) {
        for (int k = 0; k < word.length(); k++) {
            if (b[at + k] != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(byte c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isLetter(byte c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
