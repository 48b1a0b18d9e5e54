package dev.runboard.artifact;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** A file read line by line, in one pass through a fixed buffer: never the whole file in memory. */
final class DiffLines implements Closeable {
    private static final int BUFFER = 1 << 20;

    private final InputStream in;
    private final VolatileText key;
    private byte[] buf = new byte[BUFFER];
    private int start;
    private int end;
    private boolean eof;

    DiffLines(Path file, VolatileText key) throws IOException {
        this.in = Files.newInputStream(file);
        this.key = key;
    }

    /** The next line, or null at the end of the file. */
    DiffLine next() throws IOException {
        int scanFrom = start;
        while (true) {
            for (int i = scanFrom; i < end; i++) {
                if (buf[i] == '\n') {
                    DiffLine line = line(start, i, true);
                    start = i + 1;
                    return line;
                }
            }
            scanFrom = end;
            if (eof) {
                if (start == end) {
                    return null;
                }
                DiffLine line = line(start, end, false);
                start = end;
                return line;
            }
            scanFrom -= start;
            fill();
        }
    }

    /** Whether every line has been handed out. */
    boolean done() {
        return eof && start == end;
    }

    private DiffLine line(int from, int to, boolean newline) {
        long hash = key.hash(buf, from, to);
        return new DiffLine(Arrays.copyOfRange(buf, from, to), newline, hash, key.keyLength);
    }

    /** Moves the unread bytes to the front and reads more; a line longer than the buffer grows it. */
    private void fill() throws IOException {
        int left = end - start;
        if (start > 0) {
            System.arraycopy(buf, start, buf, 0, left);
        } else if (left == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        start = 0;
        end = left;
        int n = in.read(buf, end, buf.length - end);
        if (n < 0) {
            eof = true;
        } else {
            end += n;
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
