package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The whole line around a byte offset of a file, for offsets that come in file order (the matches
 * of a {@link LiteralScan}): the bytes are read through one window that moves forward, so lines
 * close together cost one read between them, and a far one costs a read of its neighbourhood.
 * A line longer than {@link #MAX_LINE} is given as the {@code MAX_LINE} bytes before and after the
 * offset (the chunked search cuts such a line into pieces the same way).
 */
final class LineWindow {
    /** The most of one line kept on each side of an offset: the chunked search's chunk. */
    static final int MAX_LINE = FileSearch.CHUNK;
    /** Bytes read at once: lines that close together come from one read. */
    private static final int WINDOW = 256 << 10;
    /** How far back from an offset a line start is first looked for. */
    private static final int LOOK_BACK = 16 << 10;

    private final FileChannel ch;
    private byte[] buf = new byte[0]; // made at the first line asked for: most files searched have none
    private long base; // file offset of buf[0]
    private int filled;
    /** The first line start at or after everything given so far: no line starts before it again. */
    private long next;

    /** Over {@code ch}, whose lines start no earlier than {@code floor} (past what max_output dropped). */
    LineWindow(FileChannel ch, long floor) {
        this.ch = ch;
        this.next = floor;
    }

    /**
     * The line holding {@code offset}, as {@code [start, end)} of {@link #bytes()} (its '\n' not
     * included), or null when that line was given already. Offsets must not go backwards.
     */
    Line lineAt(long offset) throws IOException {
        if (offset < next) {
            return null;
        }
        long start = startOf(offset);
        long cap = start + 2L * MAX_LINE;
        long from = offset;
        long want = offset + 1;
        long end;
        while (true) {
            boolean read = cover(start, Math.min(cap, want));
            long have = Math.min(cap, base + filled);
            int nl = from < have ? Newlines.indexOf(buf, (int) (from - base), (int) (have - base)) : -1;
            if (nl >= 0) {
                end = base + nl;
                break;
            }
            if (have >= cap || read && base + filled < want) {
                end = have; // a line longer than the most kept, or the file's last line (no '\n' after it)
                break;
            }
            from = Math.max(from, have);
            want = from + WINDOW;
        }
        if (end < offset) {
            return null; // the file is shorter than the scan saw it (replaced meanwhile): nothing to match
        }
        next = end + 1;
        return new Line(start, (int) (start - base), (int) (end - base));
    }

    /** The window's bytes, which a {@link Line} indexes until the next {@link #lineAt}. */
    byte[] bytes() {
        return buf;
    }

    /** Where the line holding {@code offset} starts: after the last '\n' before it, no earlier than {@link #next}. */
    private long startOf(long offset) throws IOException {
        long lowest = Math.max(next, offset - MAX_LINE);
        for (long hi = offset; hi > lowest; ) {
            long from = Math.max(lowest, hi - LOOK_BACK);
            cover(from, hi);
            int nl = Newlines.lastIndexOf(buf, (int) (from - base), (int) (Math.min(hi, base + filled) - base));
            if (nl >= 0) {
                return base + nl + 1;
            }
            hi = from;
        }
        return lowest;
    }

    /**
     * Makes the window hold the file's bytes {@code [from, to)} (fewer at the end of the file), reading
     * only when it does not.
     *
     * @return whether it read
     */
    private boolean cover(long from, long to) throws IOException {
        if (from >= base && to <= base + filled) {
            return false;
        }
        int want = (int) Math.max(WINDOW, to - from);
        if (buf.length < want) {
            buf = new byte[want];
        }
        base = from;
        ByteBuffer bb = ByteBuffer.wrap(buf, 0, want);
        while (bb.hasRemaining() && ch.read(bb, base + bb.position()) >= 0) {
            // positional reads until the window is full or the file ends
        }
        filled = bb.position();
        return true;
    }

    /** A line starting at file offset {@code offset}: its bytes are {@code [start, end)} of {@link #bytes()}. */
    record Line(long offset, int start, int end) {
    }
}
