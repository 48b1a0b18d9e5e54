package dev.runboard.artifact;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds and counts '\n' in byte arrays eight bytes at a time (SWAR): the line index and the
 * search scan whole files with it, so it must run near memory speed.
 */
public final class Newlines {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NL = 0x0A0A0A0A0A0A0A0AL;
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;

    private Newlines() {
    }

    /** High bit set in exactly the bytes of {@code word} that are '\n' (no false positives). */
    public static long mask(long word) {
        return zeroMask(word ^ NL);
    }

    /** High bit set in exactly the zero bytes of {@code x} (no false positives: no borrow runs between bytes). */
    static long zeroMask(long x) {
        return ~(((x & LOW7) + LOW7) | x | LOW7);
    }

    public static long word(byte[] b, int i) {
        return (long) LONGS.get(b, i);
    }

    /**
     * Number of '\n' in {@code b[from, to)}. Four words' masks are shifted into one (their bits lie in
     * bits 7, 6, 5 and 4 of each byte), so one bit count serves 32 bytes.
     */
    public static int count(byte[] b, int from, int to) {
        int n = 0;
        int i = from;
        for (; i + 32 <= to; i += 32) {
            n += Long.bitCount(mask(word(b, i)) | mask(word(b, i + 8)) >>> 1 | mask(word(b, i + 16)) >>> 2 | mask(word(b, i + 24)) >>> 3);
        }
        for (; i + 8 <= to; i += 8) {
            n += Long.bitCount(mask(word(b, i)));
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                n++;
            }
        }
        return n;
    }

    /** Index of the first '\n' in {@code b[from, to)}, or -1. */
    public static int indexOf(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long m = mask(word(b, i));
            if (m != 0) {
                return i + (Long.numberOfTrailingZeros(m) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Index of the last '\n' in {@code b[from, to)}, or -1. */
    public static int lastIndexOf(byte[] b, int from, int to) {
        int i = to;
        for (; i - 8 >= from; i -= 8) {
            long m = mask(word(b, i - 8));
            if (m != 0) {
                return i - 8 + ((63 - Long.numberOfLeadingZeros(m)) >>> 3);
            }
        }
        for (i = i - 1; i >= from; i--) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
