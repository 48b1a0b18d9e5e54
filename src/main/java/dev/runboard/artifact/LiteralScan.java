package dev.runboard.artifact;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The fast path of {@link FileSearch} for a plain literal: finds the literal's UTF-8 bytes in the
 * file's bytes, without building strings. The file is read in 1 MB pieces into one reused array
 * (small enough to stay in the CPU cache between the kernel's copy and the scan); the scan skips
 * through each piece 32 bytes at a time, eight at once in a long (SWAR), looking for the literal's
 * rarest byte (by a byte histogram of the file's first 64 KB), or, when even that byte is common,
 * for the two of its bytes that occur together (at their distance) least often in those 64 KB;
 * it compares the whole literal only there. Pieces overlap by the literal's length minus one, so a match across a piece
 * boundary is found once. A big file is scanned in parts side by side, one per core ({@link SplitScan}).
 *
 * <p>Matches are counted like {@code String.indexOf} stepping past each match: leftmost,
 * non-overlapping occurrences (a line holding the literal twice counts twice; the viewer steps
 * through each). With {@code foldAscii} the ASCII letters A–Z match either case and every other
 * byte matches only itself, which is what {@code Pattern.CASE_INSENSITIVE} without
 * {@code UNICODE_CASE} does on the search's one-char-per-byte text.
 */
public final class LiteralScan {
    static final int PIECE = 1 << 20;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH = 0x8080808080808080L;
    private static final long CASE = 0x2020202020202020L;

    private final byte[] needle; // lower-cased ASCII letters when folding
    private final boolean fold;
    private final int piece;
    private int r1; // the needle byte the scan looks for
    private int r2; // in pair mode, the second one
    private boolean pair;
    private boolean chosen;
    private final int parts; // 0: one per core for a big file (SplitScan.partsFor)
    private final int cap; // offsets a part keeps before the merge goes on from there by itself

    /** @param needle the literal's bytes (at least one) */
    public LiteralScan(byte[] needle, boolean foldAscii) {
        this(needle, foldAscii, PIECE);
    }

    /** With a piece size of its own (tests cut the file into tiny pieces). */
    public LiteralScan(byte[] needle, boolean foldAscii, int piece) {
        this(needle, foldAscii, piece, 0, SplitScan.CAP);
    }

    /** With a number of parts and a cap of kept offsets per part of its own (tests cut small files into many parts). */
    LiteralScan(byte[] needle, boolean foldAscii, int piece, int parts, int cap) {
        this.parts = parts;
        this.cap = cap;
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
     * each match's byte offset in order. A big file is cut into parts scanned side by side, one
     * thread per core ({@link SplitScan}); the matches still arrive in order, on this thread.
     *
     * @return false when cancelled
     */
    public boolean run(Path path, FileSearch.Progress progress, LongConsumer found, LongSupplier count) throws IOException {
        try (FileChannel ch = dev.runboard.session.OutputFile.open(path)) {
            return run(ch, progress, found, count);
        }
    }

    /** As {@link #run(Path, FileSearch.Progress, LongConsumer, LongSupplier)}, over a file the caller opened (and closes). */
    boolean run(FileChannel ch, FileSearch.Progress progress, LongConsumer found, LongSupplier count) throws IOException {
        byte[] piece = takePiece();
        try {
            long size = ch.size();
            long start = Math.min(dev.runboard.session.OutputFile.start(ch), size); // past what max_output dropped
            chooseFilter(ch, start, size, piece);
            int parts = this.parts > 0 ? this.parts : SplitScan.partsFor(size - start);
            return new SplitScan(this, ch, start, size, parts, cap).run(progress, found, count, piece);
        } finally {
            SPARE.set(piece);
        }
    }

    /**
     * The calling thread's piece between its scans: a search over many small files reads each into the
     * same array. A new one for each file made a grep over 50 runs of 1.5 MB allocate 50 MB, which the
     * supervisor's small heap collected about 30 times a search (twice the search's own time). Taken
     * out while in use, so a scan started from inside another's callback gets an array of its own.
     */
    private static final ThreadLocal<byte[]> SPARE = new ThreadLocal<>();

    private byte[] takePiece() {
        byte[] spare = SPARE.get();
        SPARE.remove();
        return spare != null && spare.length == piece ? spare : newPiece();
    }

    /** Where a range's matches go, in order; false stops the scan there. */
    interface Sink {
        boolean accept(long offset);
    }

    int length() {
        return needle.length;
    }

    byte[] newPiece() {
        return new byte[piece];
    }

    /**
     * Reports the leftmost non-overlapping matches that start in {@code [from, to)}, scanning from
     * {@code from}: the file's bytes {@code [from, to + length - 1)} (no further than {@code size})
     * are read into {@code buf} a piece at a time, pieces overlapping by the literal's length minus
     * one, so a match across a piece boundary is found once and one that starts at {@code to} or
     * later is not (it belongs to the next range). {@code read} hears how many bytes each read got.
     *
     * @return false when cancelled; true when the range is done or the sink said stop
     */
    boolean scanRange(FileChannel ch, long from, long to, long size, byte[] buf, java.util.function.BooleanSupplier cancelled,
                      Sink sink, LongConsumer read) throws IOException {
        int m = needle.length;
        long limit = Math.min(size, to + m - 1);
        ByteBuffer bb = ByteBuffer.wrap(buf);
        long base = from; // file offset of buf[0]
        long pos = from; // file offset of the next byte to read
        long nextAllowed = from; // file offset where the next match may start (no overlaps)
        int filled = 0;
        while (pos < limit) {
            if (cancelled.getAsBoolean()) {
                return false;
            }
            bb.clear().position(filled).limit((int) Math.min(buf.length, filled + (limit - pos)));
            int n = ch.read(bb, pos);
            if (n < 0) {
                break;
            }
            pos += n;
            filled += n;
            read.accept(n);
            if (filled < m) {
                continue;
            }
            // starts 0 .. filled - m are complete here; later starts wait for the next piece
            for (int i = indexIn(buf, (int) Math.max(0, nextAllowed - base), filled); i >= 0; i = indexIn(buf, i + m, filled)) {
                long at = base + i;
                if (!sink.accept(at)) {
                    return true;
                }
                nextAllowed = at + m;
            }
            int keep = m - 1;
            System.arraycopy(buf, filled - keep, buf, 0, keep);
            base += filled - keep;
            filled = keep;
        }
        return true;
    }

    /**
     * Picks the filter from the file's first piece, as a scan from its start would on its first
     * {@link #indexIn}: before any part's thread scans, so that every part scans with the same one.
     */
    private void chooseFilter(FileChannel ch, long start, long size, byte[] into) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(into, 0, (int) Math.min(size - start, Math.min(into.length, 64 << 10)));
        while (bb.hasRemaining() && ch.read(bb, start + bb.position()) > 0) {
            // positional reads until the sample is full
        }
        chooseFilter(into, bb.position());
        chosen = true;
    }

    /**
     * The first index {@code >= from} where the literal lies whole in {@code b[0, to)}, or -1 (the
     * filter is picked from these bytes on the first call).
     */
    public int indexIn(byte[] b, int from, int to) {
        int last = to - needle.length;
        if (!chosen) {
            chooseFilter(b, to);
            chosen = true;
        }
        for (int i = from; i <= last && (i = nextCandidate(b, i, last)) >= 0; i++) {
            if (matches(b, i)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Picks the filter from the first piece's bytes (its first 64 KB): the needle byte seen least
     * often ({@code r1}, ties: the last); when even that one is common (more than 1 in 128 bytes),
     * the pair of needle bytes ({@code r1}, {@code r2}) that fewest starts in the sample's first 16 KB have
     * both of, among the eight rarest positions (so a common bigram like "or" is not chosen when "rr"
     * is rarer).
     */
    private void chooseFilter(byte[] b, int len) {
        int[] freq = new int[256];
        int n = Math.min(len, 64 << 10);
        for (int i = 0; i < n; i++) {
            freq[(fold ? lower(b[i]) : b[i]) & 0xFF]++;
        }
        int m = needle.length;
        Integer[] order = new Integer[m];
        for (int i = 0; i < m; i++) {
            order[i] = m - 1 - i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingInt(i -> freq[needle[i] & 0xFF])); // stable: ties keep the later first
        pair = false;
        r1 = order[0];
        if (m < 2 || freq[needle[r1] & 0xFF] * 128L <= n) {
            return;
        }
        int k = Math.min(m, 8);
        long best = Long.MAX_VALUE;
        // The pairs are counted in the first 16 KB: 28 pairs over 64 KB cost more than scanning a small run.
        int pairSample = Math.min(n, 16 << 10);
        for (int x = 0; x < k; x++) {
            for (int y = x + 1; y < k; y++) {
                int i = order[x];
                int j = order[y];
                long c = 0;
                for (int s = 0; s + m <= pairSample && c < best; s++) {
                    if (is(b[s + i], i) && is(b[s + j], j)) {
                        c++;
                    }
                }
                if (c < best) {
                    best = c;
                    r1 = i;
                    r2 = j;
                }
            }
        }
        pair = true;
    }

    /** Whether the last run filtered on two bytes (for tests). */
    public boolean pairMode() {
        return pair;
    }

    /**
     * The first match start {@code s} in {@code [from, last]} whose filter bytes ({@code r1}, and
     * {@code r2} in pair mode) are the needle's (either case for a folded letter), or -1; the
     * whole needle is compared by {@link #matches}. Reads {@code b} up to {@code last + needle.length}.
     */
    private int nextCandidate(byte[] b, int from, int last) {
        int end = last + 1;
        long rep1 = (needle[r1] & 0xFFL) * ONES;
        long or1 = folds(r1) ? CASE : 0; // x | 0x20 equals a lower-case letter only for that letter in either case
        int i = from;
        if (!pair) {
            int o = r1;
            for (; i + 32 <= end; i += 32) {
                long x = ((long) LONGS.get(b, i + o) | or1) ^ rep1; // zero bytes where b is the needle's byte
                long y = ((long) LONGS.get(b, i + o + 8) | or1) ^ rep1;
                long z = ((long) LONGS.get(b, i + o + 16) | or1) ^ rep1;
                long w = ((long) LONGS.get(b, i + o + 24) | or1) ^ rep1;
                if (((zeros(x) | zeros(y) | zeros(z) | zeros(w)) & HIGH) != 0) {
                    return i + firstZero(x, y, z, w); // a zero byte somewhere: its lane, not a byte loop over the 32
                }
            }
            for (; i < end; i++) {
                if (is(b[i + o], r1)) {
                    return i;
                }
            }
            return -1;
        }
        long rep2 = (needle[r2] & 0xFFL) * ONES;
        long or2 = folds(r2) ? CASE : 0;
        int o1 = r1;
        int o2 = r2;
        for (; i + 32 <= end; i += 32) {
            // a lane is zero only where both bytes are the needle's
            long x = (((long) LONGS.get(b, i + o1) | or1) ^ rep1) | (((long) LONGS.get(b, i + o2) | or2) ^ rep2);
            long y = (((long) LONGS.get(b, i + o1 + 8) | or1) ^ rep1) | (((long) LONGS.get(b, i + o2 + 8) | or2) ^ rep2);
            long z = (((long) LONGS.get(b, i + o1 + 16) | or1) ^ rep1) | (((long) LONGS.get(b, i + o2 + 16) | or2) ^ rep2);
            long w = (((long) LONGS.get(b, i + o1 + 24) | or1) ^ rep1) | (((long) LONGS.get(b, i + o2 + 24) | or2) ^ rep2);
            if (((zeros(x) | zeros(y) | zeros(z) | zeros(w)) & HIGH) != 0) {
                return i + firstZero(x, y, z, w);
            }
        }
        for (; i < end; i++) {
            if (is(b[i + o1], r1) && is(b[i + o2], r2)) {
                return i;
            }
        }
        return -1;
    }

    /** High bit set in every zero byte of {@code x} (and maybe in some bytes above one): no false negatives. */
    private static long zeros(long x) {
        return (x - ONES) & ~x;
    }

    /**
     * The index of the first zero byte of the 32 bytes {@code x, y, z, w} (little-endian: the lowest lane first),
     * exactly: {@link #zeros} said there is one. With a common filter byte (one 'c' in 600 bytes of a log) a byte
     * loop over the 32 at each of them made the scan a third slower.
     */
    private static int firstZero(long x, long y, long z, long w) {
        long m = Newlines.zeroMask(x);
        if (m != 0) {
            return Long.numberOfTrailingZeros(m) >>> 3;
        }
        m = Newlines.zeroMask(y);
        if (m != 0) {
            return 8 + (Long.numberOfTrailingZeros(m) >>> 3);
        }
        m = Newlines.zeroMask(z);
        if (m != 0) {
            return 16 + (Long.numberOfTrailingZeros(m) >>> 3);
        }
        return 24 + (Long.numberOfTrailingZeros(Newlines.zeroMask(w)) >>> 3);
    }

    private boolean folds(int k) {
        return fold && needle[k] >= 'a' && needle[k] <= 'z';
    }

    private boolean is(byte c, int k) {
        byte want = needle[k];
        return c == want || (fold && (c | 0x20) == want && want >= 'a' && want <= 'z');
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
