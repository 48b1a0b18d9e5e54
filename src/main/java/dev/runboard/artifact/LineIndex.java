package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A sparse line index built by one background scan: a checkpoint (line start offset, line number)
 * every {@value #EVERY_LINES} lines or {@value #EVERY_BYTES} bytes, whichever comes first, so a
 * line number is at most one short scan away from a checkpoint. 5 GB of 100-byte lines cost
 * ~50,000 checkpoints (0.8 MB). Readers on other threads see a consistent prefix.
 */
public final class LineIndex implements Runnable {
    static final int EVERY_LINES = 1024;
    static final int EVERY_BYTES = 1 << 20;
    private static final int CHUNK = 4 << 20;

    private final Path path;
    private final BooleanSupplier stillWritten;
    private long[] offsets = new long[1024];
    private long[] numbers = new long[1024];
    private int count;
    /** Bytes scanned and '\n' seen in them; a line is numbered once its start is scanned. */
    private volatile long scanned;
    private volatile long newlines;
    private volatile long fileSize;
    /** Where line 1 starts: 0, or the first whole line a capture kept to max_output keeps. */
    private volatile long start;
    private volatile boolean done;
    private volatile boolean stopped;
    private volatile IOException failure;

    /** @param stillWritten true while the file may grow (a running session's capture): the scan then waits at the end for more */
    public LineIndex(Path path, BooleanSupplier stillWritten) {
        this.path = path;
        this.stillWritten = stillWritten;
        offsets[0] = 0;
        numbers[0] = 0;
        count = 1;
    }

    @Override
    public void run() {
        byte[] buf = new byte[CHUNK];
        ByteBuffer bb = ByteBuffer.wrap(buf);
        long pos = 0;
        long lines = 0;
        long lastCheckLine = 0;
        long lastCheckOffset = 0;
        try (FileChannel ch = dev.runboard.session.OutputFile.open(path)) {
            pos = startAt(dev.runboard.session.OutputFile.start(ch));
            lastCheckOffset = pos;
            while (!stopped) {
                long size = ch.size();
                fileSize = size;
                if (pos >= size) {
                    if (!stillWritten.getAsBoolean()) {
                        break;
                    }
                    LockSupport.parkNanos(200_000_000L); // a worker waiting for the writer, not a test sync
                    continue;
                }
                bb.clear();
                int n;
                try {
                    n = ch.read(bb, pos);
                } catch (dev.runboard.session.OutputFile.Dropped overtaken) {
                    // max_output cut past the scan while it ran: the lines are counted again from the first one kept
                    pos = startAt(overtaken.start());
                    lines = 0;
                    lastCheckLine = 0;
                    lastCheckOffset = pos;
                    continue;
                }
                if (n <= 0) {
                    continue;
                }
                // Whole words at a time; a checkpoint is due only when the count crosses the line step.
                int i = 0;
                for (; i + 8 <= n; i += 8) {
                    long m = Newlines.mask(Newlines.word(buf, i));
                    if (m == 0) {
                        continue;
                    }
                    int c = Long.bitCount(m);
                    if (lines + c - lastCheckLine < EVERY_LINES && pos + i + 8 - lastCheckOffset < EVERY_BYTES) {
                        lines += c;
                        continue;
                    }
                    while (m != 0) {
                        int at = i + (Long.numberOfTrailingZeros(m) >>> 3);
                        m &= m - 1;
                        lines++;
                        long start = pos + at + 1;
                        if (lines - lastCheckLine >= EVERY_LINES || start - lastCheckOffset >= EVERY_BYTES) {
                            add(start, lines);
                            lastCheckLine = lines;
                            lastCheckOffset = start;
                        }
                    }
                }
                for (; i < n; i++) {
                    if (buf[i] == '\n') {
                        lines++;
                        long start = pos + i + 1;
                        if (lines - lastCheckLine >= EVERY_LINES || start - lastCheckOffset >= EVERY_BYTES) {
                            add(start, lines);
                            lastCheckLine = lines;
                            lastCheckOffset = start;
                        }
                    }
                }
                pos += n;
                newlines = lines;
                scanned = pos;
            }
        } catch (IOException e) {
            failure = e;
        } finally {
            done = true;
        }
    }

    /** Starts the index over at {@code offset} (line 1 there); returns it. */
    private synchronized long startAt(long offset) {
        start = offset;
        offsets[0] = offset;
        numbers[0] = 0;
        count = 1;
        newlines = 0;
        scanned = offset;
        return offset;
    }

    /** Where line 1 starts: past what max_output dropped from a capture's start, else 0. */
    public long start() {
        return start;
    }

    private synchronized void add(long offset, long number) {
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, count * 2);
            numbers = Arrays.copyOf(numbers, count * 2);
        }
        offsets[count] = offset;
        numbers[count] = number;
        count++;
    }

    /** The last checkpoint at or before {@code offset}: {offset, line number}. */
    public synchronized long[] checkpointAtOrBefore(long offset) {
        int i = Arrays.binarySearch(offsets, 0, count, offset);
        int at = i >= 0 ? i : -i - 2;
        return new long[] {offsets[at], numbers[at]};
    }

    /** The last checkpoint at or before line {@code line}: {offset, line number}. */
    public synchronized long[] checkpointAtOrBeforeLine(long line) {
        int i = Arrays.binarySearch(numbers, 0, count, line);
        int at = i >= 0 ? i : -i - 2;
        return new long[] {offsets[at], numbers[at]};
    }

    /** True when lines starting at {@code offset} have been scanned, so their numbers are known. */
    public boolean covers(long offset) {
        return offset <= scanned || done && failure == null;
    }

    /** Lines known so far: completed lines plus a last line without a final newline once the scan is done. */
    public long lines() {
        return newlines;
    }

    public long scannedBytes() {
        return scanned;
    }

    public long fileSize() {
        return fileSize;
    }

    public boolean done() {
        return done;
    }

    public IOException failure() {
        return failure;
    }

    public double progress() {
        long size = fileSize;
        return size <= start ? (done ? 1 : 0) : Math.min(1, (double) (scanned - start) / (size - start));
    }

    public int checkpoints() {
        return count;
    }

    public void stop() {
        stopped = true;
    }
}
