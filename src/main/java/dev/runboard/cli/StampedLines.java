package dev.runboard.cli;

import dev.runboard.artifact.Newlines;
import dev.runboard.artifact.TimeIndex;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Copies a capture's lines with the time each was written in front ({@code HH:MM:SS.mmm}, local
 * time, a space, the line's bytes as written), from its {@link TimeIndex}. While the session runs
 * only lines the index already reaches are copied (the rest wait for the next call); at the end
 * every line is, those past the index stamped with the file's last-modified time.
 */
final class StampedLines {
    /** Shown for a session recorded before runboard kept time indexes. */
    static final String UNKNOWN = "--:--:--.---";

    private final OutputStream out;

    StampedLines(OutputStream out) {
        this.out = out;
    }

    /**
     * Copies the lines of {@code file} from {@code from} and returns where it stopped.
     *
     * @param ended the session has ended: copy everything, a last line without a newline too
     */
    long copy(Path file, long from, boolean ended) throws IOException {
        TimeIndex index = TimeIndex.read(file);
        long position = from;
        byte[] buf = new byte[1 << 16];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long fallback = index.isEmpty() ? -1 : Files.getLastModifiedTime(file).toMillis();
            long size = ch.size();
            int filled = 0; // bytes of buf from position on
            while (position < size) {
                int n = ch.read(ByteBuffer.wrap(buf, filled, buf.length - filled), position + filled);
                boolean atEnd = n <= 0 || position + filled + n >= size;
                filled += Math.max(0, n);
                int start = 0;
                int nl;
                while ((nl = Newlines.indexOf(buf, start, filled)) >= 0 || atEnd && ended && start < filled) {
                    long lineStart = position + start;
                    if (!ended && lineStart >= index.covered()) {
                        return flushed(lineStart);
                    }
                    int end = nl < 0 ? filled : nl + 1;
                    stamp(index, lineStart, fallback);
                    out.write(buf, start, end - start);
                    if (nl < 0) {
                        out.write('\n');
                    }
                    start = end;
                }
                if (start == 0 && filled == buf.length) {
                    buf = java.util.Arrays.copyOf(buf, buf.length * 2); // a line longer than the buffer
                } else {
                    System.arraycopy(buf, start, buf, 0, filled - start);
                    filled -= start;
                    position += start;
                }
                if (atEnd) {
                    break;
                }
            }
        } catch (java.nio.file.NoSuchFileException moved) {
            // persisted as an artifact meanwhile; the caller picks it up there
        }
        return flushed(position);
    }

    private void stamp(TimeIndex index, long lineStart, long fallback) throws IOException {
        long millis = index.timeOf(lineStart);
        if (millis < 0) {
            millis = fallback;
        }
        String s = millis < 0 ? UNKNOWN : TimeIndex.stamp(millis);
        out.write((s + " ").getBytes(StandardCharsets.US_ASCII));
    }

    private long flushed(long position) throws IOException {
        out.flush();
        return position;
    }
}
