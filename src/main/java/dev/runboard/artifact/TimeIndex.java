package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * When each byte of a capture was written: a sparse, sorted list of (offset, epoch millis)
 * entries, each saying "the file was {@code offset} bytes long at that time". The owner of a
 * session appends one whenever the file grew since its last look ({@link TimeIndexWriter}),
 * at most {@value #RESOLUTION_MILLIS} ms apart, so the capture itself stays a plain redirect.
 *
 * <p>A line's time is the time of the first entry whose offset exceeds the line's start: the line
 * had not begun at the entry before, and had at this one, so the time is at most one sampling
 * period late. The file {@code <capture>.times} sits beside the capture (and moves with it when it
 * becomes an artifact): {@value #ENTRY} bytes per entry, two big-endian longs. A torn last entry
 * (the owner died mid-write) is ignored.
 */
public final class TimeIndex {
    /** What the docs and {@code --help} promise: a line's time is at most this late. */
    public static final int RESOLUTION_MILLIS = 100;
    public static final String SUFFIX = ".times";
    static final int ENTRY = 16;

    /**
     * Made when a time is first shown, not when the class loads: the local zone reads the JDK's
     * time-zone database, which cost a short {@code exec} (that only writes an index) ~30 ms (docs/BENCHMARKS.md §10).
     */
    private static final class Stamp {
        static final java.time.format.DateTimeFormatter FORMAT =
                java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(java.time.ZoneId.systemDefault());
    }

    private final long[] offsets;
    private final long[] millis;
    private final int count;

    private TimeIndex(long[] offsets, long[] millis, int count) {
        this.offsets = offsets;
        this.millis = millis;
        this.count = count;
    }

    /** The index file of a capture or artifact. */
    public static Path fileFor(Path data) {
        return data.resolveSibling(data.getFileName() + SUFFIX);
    }

    /** The index beside {@code data} as it is now; empty when there is none (a session older than the index). */
    public static TimeIndex read(Path data) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(fileFor(data));
        } catch (NoSuchFileException e) {
            return new TimeIndex(new long[0], new long[0], 0);
        }
        int n = bytes.length / ENTRY;
        long[] offsets = new long[n];
        long[] millis = new long[n];
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
        int count = 0;
        for (int i = 0; i < n; i++) {
            long offset = buf.getLong();
            long time = buf.getLong();
            // Offsets only grow; an entry that does not (a capture rewritten by hand) would break the search.
            if (count == 0 || offset > offsets[count - 1]) {
                offsets[count] = offset;
                millis[count] = time;
                count++;
            }
        }
        return new TimeIndex(offsets, millis, count);
    }

    /** Whether the index has any entry (false for sessions recorded before the index existed). */
    public boolean isEmpty() {
        return count == 0;
    }

    public int entries() {
        return count;
    }

    /** Bytes whose time is known: the offset of the last entry. */
    public long covered() {
        return count == 0 ? 0 : offsets[count - 1];
    }

    /** A line's time as the Contract shows it: local {@code HH:MM:SS.mmm}. */
    public static String stamp(long epochMillis) {
        return Stamp.FORMAT.format(java.time.Instant.ofEpochMilli(epochMillis));
    }

    /** How long the file was at {@code epochMillis}: the offset of the last entry at or before it (0 before the first). */
    public long bytesAt(long epochMillis) {
        long bytes = 0;
        for (int i = 0; i < count && millis[i] <= epochMillis; i++) {
            bytes = offsets[i];
        }
        return bytes;
    }

    /** Epoch millis at which the line starting at {@code lineStart} was written, or -1 when the index does not reach it yet. */
    public long timeOf(long lineStart) {
        int i = Arrays.binarySearch(offsets, 0, count, lineStart);
        int first = i >= 0 ? i + 1 : -i - 1; // the first entry whose offset exceeds lineStart
        return first < count ? millis[first] : -1;
    }
}
