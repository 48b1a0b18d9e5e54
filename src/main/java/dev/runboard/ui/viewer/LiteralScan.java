package dev.runboard.ui.viewer;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The fast path of {@link FileSearch} for a plain literal: finds the literal's UTF-8 bytes in the
 * file's bytes, without building strings. The file is read in 1 MB pieces into one reused array
 * (small enough to stay in the CPU cache between the kernel's copy and the scan); the scan skips
 * through each piece sixteen bytes at a time (SWAR) looking for the literal's rarest byte (by a
 * byte histogram of the file's first piece) and compares the whole literal only there. Pieces
 * overlap by the literal's length minus one, so a match across a piece boundary is found once.
 *
 * <p>Matches are counted like {@code String.indexOf} stepping past each match: leftmost,
 * non-overlapping occurrences (a line holding the literal twice counts twice; the viewer steps
 * through each). With {@code foldAscii} the ASCII letters A–Z match either case and every other
 * byte matches only itself, which is what {@code Pattern.CASE_INSENSITIVE} without
 * {@code UNICODE_CASE} does on the search's one-char-per-byte text.
 */
final class LiteralScan {
    static final int PIECE = 1 << 20;
    private static final int PROGRESS_EVERY = 8 << 20;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH = 0x8080808080808080L;

    private final byte[] needle; // lower-cased ASCII letters when folding
    private final boolean fold;
    private final int piece;

    /** @param needle the literal's bytes (at least one) */
    LiteralScan(byte[] needle, boolean foldAscii) {
        this(needle, foldAscii, PIECE);
    }

    /** With a piece size of its own (tests cut the file into tiny pieces). */
    LiteralScan(byte[] needle, boolean foldAscii, int piece) {
        if (needle.length == 0) {
            throw new IllegalArgumentException("empty literal");
        }
        this.fold = foldAscii;
        this.needle = needle.clone();
        if (fold) {
            for (int i = 0; i < this.needle.length; i++) {
                this.needle[i] = lower(this.needle[i]);
            }
        }
        this.piece = Math.max(piece, 2 * needle.length);
    }

    /**
     * Scans the first {@code size} bytes of the file (its size when the search started), reporting
     * each match's byte offset in order.
     *
     * @return false when cancelled
     */
    boolean run(Path path, FileSearch.Progress progress, LongConsumer found, LongSupplier count) throws IOException {
        int m = needle.length;
        byte[] buf = new byte[piece];
        ByteBuffer bb = ByteBuffer.wrap(buf);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            long base = 0; // file offset of buf[0]
            long read = 0;
            long nextAllowed = 0; // file offset where the next match may start (no overlaps)
            long reported = 0;
            int filled = 0;
            int rare = -1;
            while (read < size) {
                if (progress.cancelled()) {
                    return false;
                }
                bb.clear().position(filled).limit((int) Math.min(buf.length, filled + (size - read)));
                int n = ch.read(bb, read);
                if (n < 0) {
                    break;
                }
                read += n;
                filled += n;
                if (filled < m) {
                    continue;
                }
                if (rare < 0) {
                    rare = rarest(buf, filled);
                }
                // starts 0 .. filled - m are complete here; later starts wait for the next piece
                int from = (int) Math.max(0, nextAllowed - base);
                int last = filled - m;
                int i = from;
                while ((i = candidate(buf, i + rare, last + rare + 1, rare) - rare) >= 0 && i <= last) {
                    if (matches(buf, i)) {
                        long at = base + i;
                        found.accept(at);
                        nextAllowed = at + m;
                        i += m;
                    } else {
                        i++;
                    }
                }
                int keep = m - 1;
                System.arraycopy(buf, filled - keep, buf, 0, keep);
                base += filled - keep;
                filled = keep;
                if (read - reported >= PROGRESS_EVERY) {
                    reported = read;
                    progress.update(read, size, count.getAsLong());
                }
            }
            progress.update(size, size, count.getAsLong());
        }
        return true;
    }

    /** Index of the needle byte seen least often in the first 64 KB of the file (ties: the last). */
    private int rarest(byte[] b, int len) {
        int[] freq = new int[256];
        for (int i = 0, n = Math.min(len, 64 << 10); i < n; i++) {
            freq[(fold ? lower(b[i]) : b[i]) & 0xFF]++;
        }
        int best = needle.length - 1;
        for (int i = needle.length - 2; i >= 0; i--) {
            if (freq[needle[i] & 0xFF] < freq[needle[best] & 0xFF]) {
                best = i;
            }
        }
        return best;
    }

    /** The first index in {@code [from, to)} whose byte is the needle's byte {@code k} (either case when folding a letter), or -1. */
    private int candidate(byte[] b, int from, int to, int k) {
        byte want = needle[k];
        boolean letter = fold && want >= 'a' && want <= 'z';
        long rep = (want & 0xFFL) * ONES;
        long or = letter ? 0x2020202020202020L : 0; // x | 0x20 == a lower-case letter only for that letter in either case
        int i = from;
        while (true) {
            for (; i + 16 <= to; i += 16) {
                long x = ((long) LONGS.get(b, i) | or) ^ rep; // zero bytes where b may be want
                long y = ((long) LONGS.get(b, i + 8) | or) ^ rep;
                if (((((x - ONES) & ~x) | ((y - ONES) & ~y)) & HIGH) != 0) {
                    break; // a zero byte in x or y: look closer below
                }
            }
            for (int end = Math.min(i + 16, to); i < end; i++) {
                byte c = b[i];
                if (c == want || (letter && (c | 0x20) == want)) {
                    return i;
                }
            }
            if (i >= to) {
                return -1;
            }
        }
    }

    private boolean matches(byte[] b, int at) {
        byte[] n = needle;
        if (fold) {
            for (int j = 0; j < n.length; j++) {
                if (lower(b[at + j]) != n[j]) {
                    return false;
                }
            }
        } else {
            for (int j = 0; j < n.length; j++) {
                if (b[at + j] != n[j]) {
                    return false;
                }
            }
        }
        return true;
    }

    private static byte lower(byte c) {
        return c >= 'A' && c <= 'Z' ? (byte) (c | 0x20) : c;
    }
}
