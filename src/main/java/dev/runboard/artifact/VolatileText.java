package dev.runboard.artifact;

import java.util.Arrays;

/**
 * The comparison key of a line, computed without building a new string: the line as is, or (when
 * ignoring volatile text) with every number, timestamp, duration and hex address masked, so that
 * two Maven or pytest logs that differ only in timings compare equal. A run of hex digits that
 * holds at least one decimal digit ({@code 12}, {@code 0.35}, {@code 7ffe3a}, {@code 09:41:07}'s
 * parts) counts as one masked token, and so does a duration unit right after it ({@code 12ms},
 * {@code 0.35 s}); so does a hex run of 8 or more, or one right after {@code 0x} or {@code @} (an
 * address like {@code Cache@deadbeef}). Words such as {@code BUILD} or {@code added} stay.
 *
 * <p>A line is fed in pieces ({@link #begin}, {@link #add} as its bytes come, {@link #finish}) and
 * the key does not depend on where the pieces were cut, so a line of any length is keyed in a few
 * bytes of memory. What is not yet decided at the end of a piece is kept as state: the two bytes
 * before a run (for {@code @} and {@code 0x}), a dot that belongs to the run only if a digit
 * follows, the word after a masked run that may be its unit. Within a piece, plain text, the
 * inside of a run and a unit that can be seen whole are taken in tight loops: this runs over
 * every byte of both files.
 */
final class VolatileText {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final byte MASK = '#';
    private static final String[] UNITS = {"ms", "us", "ns", "min", "sec", "s", "m", "h"};
    private static final int LONGEST_UNIT = 3;
    /** A run this long is masked whatever follows, so its bytes need not be kept. */
    private static final int ADDRESS_RUN = 8;

    private enum State { PLAIN, RUN, RUN_DOT, UNIT }

    private final boolean ignoreVolatile;
    private long hash;
    private long length;
    private State state;
    /** The last two bytes taken, -1 before the line's start. */
    private int previous;
    private int beforePrevious;
    private long runLength;
    private boolean runMasked;
    /** The run's first bytes: printed as they are if it turns out not to be masked. */
    private final byte[] run = new byte[ADDRESS_RUN];
    /** After a masked run: a space and the letters seen so far, until it is known whether they are a unit. */
    private final byte[] unit = new byte[1 + LONGEST_UNIT];
    private int unitLength;

    VolatileText(boolean ignoreVolatile) {
        this.ignoreVolatile = ignoreVolatile;
    }

    /** Starts the key of a new line. */
    void begin() {
        hash = FNV_OFFSET;
        length = 0;
        state = State.PLAIN;
        previous = -1;
        beforePrevious = -1;
    }

    /** Adds the next bytes of the line. */
    void add(byte[] b, int from, int to) {
        if (!ignoreVolatile) {
            long h = hash;
            for (int i = from; i < to; i++) {
                h = (h ^ (b[i] & 0xff)) * FNV_PRIME;
            }
            hash = h;
            length += to - from;
            return;
        }
        int i = from;
        while (i < to) {
            int k = switch (state) {
                case PLAIN -> plainEnd(b, i, to);
                case RUN -> runEnd(b, i, to);
                case UNIT -> unitLength == 0 ? unitEnd(b, i, to) : i;
                case RUN_DOT -> i;
            };
            if (k > i) {
                beforePrevious = k - i >= 2 ? b[k - 2] : previous;
                previous = b[k - 1];
                i = k;
            } else if (state == State.RUN && !isHex(b[i]) && b[i] != '.') {
                endRun(); // b[i] is not part of it
            } else {
                take(b[i++]);
            }
        }
    }

    /** Ends the line: its key's hash ({@link #length()} is then its length). */
    long finish() {
        if (ignoreVolatile) {
            while (state != State.PLAIN) {
                end();
            }
        }
        return hash;
    }

    /**
     * The key of a line held whole in {@code b} in one pass, as {@link #begin}, {@link #add} and
     * {@link #finish} would give it: nearly every line of a build log fits the reader's buffer, and
     * the piecewise keying's states cost a whole {@code diff --ignore-volatile} 1.25x in time (a
     * paired run of 5 on two 150 MiB logs), so they are kept for lines that do not fit.
     */
    long whole(byte[] b, int from, int to) {
        long h = FNV_OFFSET;
        if (!ignoreVolatile) {
            for (int i = from; i < to; i++) {
                h = (h ^ (b[i] & 0xff)) * FNV_PRIME;
            }
            length = to - from;
            return h;
        }
        long n = 0;
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
                boolean address = end - i >= ADDRESS_RUN || (i > from && b[i - 1] == '@')
                        || (i - from >= 2 && b[i - 1] == 'x' && b[i - 2] == '0');
                if (digit || address) {
                    h = (h ^ MASK) * FNV_PRIME;
                    n++;
                    i = wholeUnitEnd(b, end, to);
                    continue;
                }
                for (; i < end; i++) {
                    h = (h ^ (b[i] & 0xff)) * FNV_PRIME;
                    n++;
                }
                continue;
            }
            h = (h ^ (b[i] & 0xff)) * FNV_PRIME;
            n++;
            i++;
        }
        length = n;
        return h;
    }

    /** Past a duration unit that follows a masked run (after at most one space), else {@code at}. */
    private static int wholeUnitEnd(byte[] b, int at, int to) {
        int start = at < to && b[at] == ' ' ? at + 1 : at;
        for (String unit : UNITS) {
            int end = start + unit.length();
            if (end <= to && wholeMatches(b, start, unit) && (end == to || !isLetter(b[end]))) {
                return end;
            }
        }
        return at;
    }

    private static boolean wholeMatches(byte[] b, int at, String word) {
        for (int k = 0; k < word.length(); k++) {
            if (b[at + k] != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The length of the last finished key: two lines must agree on it as well as on the hash. */
    long length() {
        return length;
    }

    /** Hashes plain text and words' hex letters from {@code i}; stops where a run needs deciding. */
    private int plainEnd(byte[] b, int i, int to) {
        long h = hash;
        int k = i;
        while (k < to) {
            if (isHex(b[k])) {
                boolean address = afterAddressMark(k > i ? b[k - 1] : previous, k - 1 > i ? b[k - 2] : k > i ? previous : beforePrevious);
                int end = address ? -1 : plainRunEnd(b, k, to);
                if (end < 0) {
                    runMasked = address;
                    runLength = 0;
                    state = State.RUN;
                    break;
                }
                for (; k < end; k++) {
                    h = (h ^ (b[k] & 0xff)) * FNV_PRIME;
                }
            }
            h = (h ^ (b[k] & 0xff)) * FNV_PRIME; // neither hex nor a dot
            k++;
        }
        hash = h;
        length += k - i;
        return k;
    }

    /** An address or a hash may have no decimal digit: runs after "@" or "0x" are masked too. */
    private static boolean afterAddressMark(int before, int twoBefore) {
        return before == '@' || (before == 'x' && twoBefore == '0');
    }

    /**
     * Where a run of hex letters at {@code k}, not after an address mark, ends when it is plain
     * text decided within {@code b[k, to)}: no digit, shorter than an address, and followed by a
     * byte that is neither hex nor a dot (the letters a-f in words). -1 when it needs the state machine.
     */
    private static int plainRunEnd(byte[] b, int k, int to) {
        int end = k;
        while (end < to && end - k < ADDRESS_RUN && isHex(b[end]) && !isDigit(b[end])) {
            end++;
        }
        return end < to && end - k < ADDRESS_RUN && !isHex(b[end]) && b[end] != '.' ? end : -1;
    }

    /** Takes the run's hex bytes from {@code i}. */
    private int runEnd(byte[] b, int i, int to) {
        boolean digit = false;
        int k = i;
        for (; k < to && isHex(b[k]); k++) {
            long at = runLength + k - i;
            if (at < ADDRESS_RUN) {
                run[(int) at] = b[k];
            }
            digit |= isDigit(b[k]);
        }
        runLength += k - i;
        runMasked |= digit || runLength >= ADDRESS_RUN;
        return k;
    }

    /**
     * Right after a masked run: past its unit when one is there, {@code i} when none is, decided
     * within {@code b[i, to)}; -1 when the piece ends first (then byte by byte).
     */
    private int unitEnd(byte[] b, int i, int to) {
        int start = b[i] == ' ' ? i + 1 : i;
        int end = start;
        while (end < to && end - start <= LONGEST_UNIT && isLetter(b[end])) {
            end++;
        }
        if (end - start > LONGEST_UNIT) {
            state = State.PLAIN;
            return i;
        }
        if (end == to) {
            return -1;
        }
        state = State.PLAIN;
        return isUnit(b, start, end) ? end : i;
    }

    /** One byte through the state machine: what the loops leave to it. */
    private void take(byte c) {
        switch (state) {
            case PLAIN -> {
                if (isHex(c)) {
                    runMasked = afterAddressMark(previous, beforePrevious);
                    runLength = 0;
                    state = State.RUN;
                    grow(c);
                } else {
                    emit(c);
                    taken(c);
                }
            }
            case RUN -> {
                if (isHex(c)) {
                    grow(c);
                } else if (c == '.') {
                    state = State.RUN_DOT; // in the run only if a digit follows
                } else {
                    endRun();
                    take(c);
                }
            }
            case RUN_DOT -> {
                if (isDigit(c)) {
                    state = State.RUN;
                    grow((byte) '.');
                    grow(c);
                } else {
                    end();
                    take(c);
                }
            }
            case UNIT -> {
                boolean space = unitLength == 0 && c == ' ';
                int letters = unitLength - (unitLength > 0 && unit[0] == ' ' ? 1 : 0);
                if (space || (isLetter(c) && letters < LONGEST_UNIT)) {
                    unit[unitLength++] = c;
                } else {
                    endUnit(isLetter(c));
                    take(c);
                }
            }
        }
    }

    /** What is pending is complete: the line ends, or the next byte does not continue it. */
    private void end() {
        switch (state) {
            case RUN -> endRun();
            case RUN_DOT -> {
                endRun();
                take((byte) '.');
            }
            case UNIT -> endUnit(false);
            default -> {
            }
        }
    }

    private void grow(byte c) {
        if (runLength < ADDRESS_RUN) {
            run[(int) runLength] = c;
        }
        runLength++;
        runMasked |= isDigit(c) || runLength >= ADDRESS_RUN;
        taken(c);
    }

    /** The run is over: one masked token (then maybe its unit), or its letters as they are. */
    private void endRun() {
        if (runMasked) {
            emit(MASK);
            state = State.UNIT;
            unitLength = 0;
            return;
        }
        for (int k = 0; k < runLength; k++) {
            emit(run[k]);
        }
        state = State.PLAIN;
    }

    /**
     * The word after a masked run is complete: skipped when it is a unit ({@code letterNext}: the
     * next byte is a letter, so the word is longer), else its bytes are taken as ordinary text.
     */
    private void endUnit(boolean letterNext) {
        int held = unitLength;
        unitLength = 0;
        state = State.PLAIN;
        int start = held > 0 && unit[0] == ' ' ? 1 : 0;
        if (!letterNext && isUnit(unit, start, held)) {
            for (int k = 0; k < held; k++) {
                taken(unit[k]);
            }
            return;
        }
        byte[] again = Arrays.copyOf(unit, held); // taking them may start another unit in the same array
        for (byte c : again) {
            take(c);
        }
    }

    private static boolean isUnit(byte[] b, int from, int to) {
        for (String u : UNITS) {
            if (u.length() == to - from && matches(b, from, u)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(byte[] b, int at, String word) {
        for (int k = 0; k < word.length(); k++) {
            if (b[at + k] != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private void emit(byte c) {
        hash = (hash ^ (c & 0xff)) * FNV_PRIME;
        length++;
    }

    private void taken(byte c) {
        beforePrevious = previous;
        previous = c;
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
