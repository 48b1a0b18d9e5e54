package dev.runboard.artifact;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A file read line by line, in one pass through a fixed buffer: never the whole file, nor the
 * whole of a long line, in memory. A line longer than the buffer is keyed as it streams through
 * and remembered by where it is; {@link DiffLine#writeTo} reads it back from the same open file
 * (still readable if the output is moved meanwhile).
 */
final class DiffLines implements Closeable {
    private static final int BUFFER = 1 << 20;
    /**
     * Lines up to this many bytes keep their text; longer ones are read back to be printed. The
     * comparison may hold 2 × {@link LineDiff#LOOKAHEAD} lines, so this bounds that to ~32 MiB of
     * text; most log lines are shorter.
     */
    static final int KEPT_TEXT = 256;
    private static final int COPY_BUFFER = 1 << 16;

    private final FileChannel channel;
    private final VolatileText key;
    private final byte[] buf;
    /** Where in the file {@code buf[0]} is. */
    private long offset;
    private int start;
    private int end;
    private boolean eof;

    DiffLines(Path file, VolatileText key) throws IOException {
        this(file, key, BUFFER);
    }

    /** With a buffer of {@code bufferSize} bytes: a test makes lines longer than it without large files. */
    DiffLines(Path file, VolatileText key, int bufferSize) throws IOException {
        this.channel = dev.runboard.session.OutputFile.open(file);
        this.offset = dev.runboard.session.OutputFile.start(channel); // past what max_output dropped
        channel.position(offset);
        this.key = key;
        this.buf = new byte[bufferSize];
    }

    /** The next line, or null at the end of the file. */
    DiffLine next() throws IOException {
        int scanFrom = start;
        while (true) {
            int nl = Newlines.indexOf(buf, scanFrom, end);
            if (nl >= 0) {
                DiffLine line = line(start, nl, true);
                start = nl + 1;
                return line;
            }
            if (eof) {
                if (start == end) {
                    return null;
                }
                DiffLine line = line(start, end, false);
                start = end;
                return line;
            }
            if (start == 0 && end == buf.length) {
                return longLine();
            }
            scanFrom = end - start;
            fill();
        }
    }

    /** Whether every line has been handed out. */
    boolean done() {
        return eof && start == end;
    }

    private DiffLine line(int from, int to, boolean newline) {
        long hash = key.whole(buf, from, to);
        if (to - from <= KEPT_TEXT) {
            return DiffLine.kept(Arrays.copyOfRange(buf, from, to), newline, hash, key.length());
        }
        return DiffLine.inFile(this, offset + from, to - from, newline, hash, key.length());
    }

    /** A line that fills the whole buffer: keyed chunk by chunk until its newline or the end of the file. */
    private DiffLine longLine() throws IOException {
        long lineStart = offset;
        long size = 0;
        key.begin();
        while (true) {
            int nl = Newlines.indexOf(buf, start, end);
            int to = nl < 0 ? end : nl;
            key.add(buf, start, to);
            size += to - start;
            if (nl >= 0) {
                start = nl + 1;
                return DiffLine.inFile(this, lineStart, size, true, key.finish(), key.length());
            }
            offset += end;
            start = 0;
            end = 0;
            int n = channel.read(ByteBuffer.wrap(buf));
            if (n < 0) {
                eof = true;
                return DiffLine.inFile(this, lineStart, size, false, key.finish(), key.length());
            }
            end = n;
        }
    }

    /** Moves the unread bytes to the front and reads more. */
    private void fill() throws IOException {
        if (start > 0) {
            System.arraycopy(buf, start, buf, 0, end - start);
            offset += start;
            end -= start;
            start = 0;
        }
        int n = channel.read(ByteBuffer.wrap(buf, end, buf.length - end));
        if (n < 0) {
            eof = true;
        } else {
            end += n;
        }
    }

    /** Copies {@code size} bytes from {@code at} to {@code out}, for a line too long to have been kept. */
    void copy(long at, long size, OutputStream out) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(COPY_BUFFER, Math.max(1, size)));
        for (long done = 0; done < size; ) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), size - done));
            int n = channel.read(chunk, at + done);
            if (n < 0) {
                throw new IOException("the output is shorter than when it was compared");
            }
            out.write(chunk.array(), 0, n);
            done += n;
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
