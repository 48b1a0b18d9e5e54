package dev.runboard.artifact;

import dev.runboard.session.OutputPreview;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Random access to the lines of a file of any size through a small LRU cache of 64 KiB pages:
 * memory stays at {@value #MAX_PAGES} pages whatever the file. Lines are found by byte offset, so
 * the end of a 5 GB file is as near as its start. Used from one worker thread (not the FX thread).
 * The bytes come from a {@link ByteSource}: a local file, or a remote output read by ranges.
 */
public final class ArtifactFile implements AutoCloseable {
    static final int PAGE = 64 * 1024;
    static final int MAX_PAGES = 64;
    /** Bytes of one line that are shown; the rest is cut with a marker (a 10 MB line must not reach a Text node). */
    public static final int LINE_LIMIT = 16 * 1024;

    private final Path path;
    private final ByteSource source;
    private final Map<Long, byte[]> pages = new LinkedHashMap<>(MAX_PAGES * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
            return size() > MAX_PAGES;
        }
    };
    /** Read into by {@link #countStreamed}: small enough to stay in the CPU's cache between the copy and the count. */
    private static final int STREAM_PIECE = 256 << 10;
    private byte[] scratch;
    private long size;
    /** Where the first line starts: 0, or past what max_output dropped from a capture's start. */
    private long start;

    public ArtifactFile(Path path) throws IOException {
        this(path, ByteSource.of(path));
    }

    /** The bytes of {@code source}, shown as {@code path} (a remote output's local mirror). */
    public ArtifactFile(Path path, ByteSource source) throws IOException {
        this.path = path;
        this.source = source;
        this.size = source.size();
        this.start = Math.min(source.start(), size);
    }

    /** Where the first line starts: 0, or the first whole line a capture kept to max_output keeps. */
    public long start() {
        return start;
    }

    public Path path() {
        return path;
    }

    public long size() {
        return size;
    }

    /** Looks again at the file's size (it may still be written); a grown last page is read again. */
    public long refreshSize() {
        try {
            long now = source.size();
            if (now != size) {
                pages.remove(size / PAGE);
                size = now;
            }
            long kept = Math.min(source.start(), size);
            if (kept != start) {
                pages.clear(); // max_output cut more: the pages before the new start read as filler now
                start = kept;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return size;
    }

    private byte[] page(long index) {
        byte[] p = pages.get(index);
        if (p == null) {
            long start = index * PAGE;
            int len = (int) Math.min(PAGE, size - start);
            ByteBuffer buf = ByteBuffer.allocate(Math.max(0, len));
            try {
                source.read(buf, start);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            p = buf.position() == len ? buf.array() : java.util.Arrays.copyOf(buf.array(), buf.position());
            pages.put(index, p);
        }
        return p;
    }

    /** The offset just after the first '\n' at or after {@code from}, or the file's size when there is none. */
    public long nextLineStart(long from) {
        long pos = from;
        while (pos < size) {
            byte[] p = page(pos / PAGE);
            int in = (int) (pos % PAGE);
            if (in >= p.length) {
                break;
            }
            int nl = Newlines.indexOf(p, in, p.length);
            if (nl >= 0) {
                return pos - in + nl + 1;
            }
            pos += p.length - in;
        }
        return size;
    }

    /**
     * The start of the line {@code pos} is on: just after the last '\n' before {@code pos}, or 0. A
     * {@code pos} at a '\n' is on the line that '\n' ends; one just after it, on the next line.
     */
    public long lineStartBefore(long pos) {
        long end = Math.min(pos, size);
        while (end > start) {
            long index = (end - 1) / PAGE;
            byte[] p = page(index);
            int to = (int) Math.min(end - index * PAGE, p.length);
            int nl = Newlines.lastIndexOf(p, 0, to);
            if (nl >= 0) {
                return Math.max(start, index * PAGE + nl + 1);
            }
            end = index * PAGE;
        }
        return start;
    }

    /** The start of the line before the one starting at {@code lineStart} (itself at 0). */
    public long previousLineStart(long lineStart) {
        return lineStart <= start ? start : lineStartBefore(lineStart - 1);
    }

    /** The start of the last line (a final newline ends the last line, it does not start an empty one). */
    public long lastLineStart() {
        if (size == 0) {
            return 0;
        }
        return byteAt(size - 1) == '\n' ? lineStartBefore(size - 1) : lineStartBefore(size);
    }

    public int byteAt(long pos) {
        byte[] p = page(pos / PAGE);
        return p[(int) (pos % PAGE)];
    }

    /**
     * Number of '\n' in {@code [from, to)}. A long range is streamed through one reused array, past
     * the page cache: a grep's line number for a match at the end of a 1 GiB run counted through
     * 16,384 new pages, zeroed, filled and collected, half the search's time (docs/BENCHMARKS.md §9.2).
     */
    public long countNewlines(long from, long to) {
        long end = Math.min(to, size);
        if (end - from > STREAMED) {
            return countStreamed(from, end);
        }
        long n = 0;
        long pos = from;
        while (pos < end) {
            long index = pos / PAGE;
            byte[] p = page(index);
            int in = (int) (pos - index * PAGE);
            int stop = (int) Math.min(p.length, end - index * PAGE);
            if (in >= stop) {
                break;
            }
            n += Newlines.count(p, in, stop);
            pos = index * PAGE + stop;
        }
        return n;
    }

    /** A range longer than this is counted by {@link #countStreamed}: more than the cache holds. */
    static final int STREAMED = MAX_PAGES * PAGE;

    private long countStreamed(long from, long end) {
        if (scratch == null) {
            scratch = new byte[STREAM_PIECE];
        }
        ByteBuffer bb = ByteBuffer.wrap(scratch);
        long n = 0;
        long pos = from;
        while (pos < end) {
            bb.clear().limit((int) Math.min(scratch.length, end - pos));
            int got;
            try {
                got = source.read(bb, pos);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (got <= 0) {
                break;
            }
            n += Newlines.count(scratch, 0, got);
            pos += got;
        }
        return n;
    }

    /** The line starting at {@code start}: its text (decoded, cut at {@link #LINE_LIMIT} bytes) and where the next line starts. */
    public ViewerLine line(long start, long number) {
        int want = (int) Math.min(LINE_LIMIT, size - start);
        byte[] bytes = read(start, want);
        int nl = Newlines.indexOf(bytes, 0, bytes.length);
        long next;
        long cut = 0;
        int shown;
        if (nl >= 0) {
            shown = nl;
            next = start + nl + 1;
        } else if (start + bytes.length >= size) {
            shown = bytes.length;
            next = size;
        } else {
            shown = utf8Boundary(bytes, bytes.length);
            next = nextLineStart(start + bytes.length);
            long lineEnd = next < size || byteAt(size - 1) == '\n' ? next - 1 : next;
            cut = lineEnd - (start + shown);
        }
        if (cut == 0 && shown > 0 && bytes[shown - 1] == '\r') {
            shown--;
        }
        String text = OutputPreview.decode(java.util.Arrays.copyOf(bytes, shown));
        return new ViewerLine(number, start, next, text, cut);
    }

    /** Cuts before an incomplete UTF-8 sequence at the end, so a cut line does not end in U+FFFD. */
    private static int utf8Boundary(byte[] b, int end) {
        int i = end;
        int back = 0;
        while (back < 3 && i - 1 >= 0 && (b[i - 1] & 0xC0) == 0x80) {
            i--;
            back++;
        }
        if (i - 1 >= 0 && (b[i - 1] & 0xC0) == 0xC0) {
            int lead = b[i - 1] & 0xFF;
            int len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
            return len > back + 1 ? i - 1 : end;
        }
        return end;
    }

    public byte[] read(long pos, int len) {
        byte[] out = new byte[(int) Math.max(0, Math.min(len, size - pos))];
        int done = 0;
        while (done < out.length) {
            long at = pos + done;
            byte[] p = page(at / PAGE);
            int in = (int) (at % PAGE);
            int n = Math.min(out.length - done, p.length - in);
            if (n <= 0) {
                break;
            }
            System.arraycopy(p, in, out, done, n);
            done += n;
        }
        return done == out.length ? out : java.util.Arrays.copyOf(out, done);
    }

    @Override
    public void close() {
        source.close();
    }
}
