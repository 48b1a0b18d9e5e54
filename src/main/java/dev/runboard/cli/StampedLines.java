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

/**
 * Copies a capture's lines with the time each was written in front ({@code HH:MM:SS.mmm}, local
 * time, a space, the line's bytes as written), from its {@link TimeIndex}. While the session runs
 * only lines the index already reaches are copied (the rest wait for the next call); at the end
 * every line is, those past the index stamped with the file's last-modified time.
 *
 * <p>Bytes go through a fixed buffer: a line longer than it (a progress bar redrawn with CR alone
 * for an hour is one line) is stamped once at its start and its bytes copied on as they come,
 * across calls, so memory stays the same whatever the shape of the output.
 */
final class StampedLines {
    /** Shown for a session recorded before runboard kept time indexes. */
    static final String UNKNOWN = "--:--:--.---";
    static final int BUFFER = 1 << 16;

    private final OutputStream out;
    private final byte[] buf = new byte[BUFFER];
    /** The bytes at the next position continue a line whose stamp is already out. */
    private boolean midLine;

    /** Where to go on from a position before the output's start (max_output dropped it), and says so. */
    private final java.util.function.LongBinaryOperator pastDropped;

    StampedLines(OutputStream out) {
        this(out, Math::max);
    }

    /** @param pastDropped (position, start of the kept output) to the position to go on from */
    StampedLines(OutputStream out, java.util.function.LongBinaryOperator pastDropped) {
        this.out = out;
        this.pastDropped = pastDropped;
    }

    /**
     * Copies the lines of {@code file} from {@code from} and returns where it stopped.
     *
     * @param ended the session has ended: copy everything, a last line without a newline too
     */
    long copy(Path file, long from, boolean ended) throws IOException {
        TimeIndex index = TimeIndex.read(file);
        long position = from;
        try (FileChannel ch = dev.runboard.session.OutputFile.open(file)) {
            long fallback = index.isEmpty() ? -1 : Files.getLastModifiedTime(file).toMillis();
            long size = ch.size();
            long kept = dev.runboard.session.OutputFile.start(ch);
            if (position < kept) {
                position = pastDropped.applyAsLong(position, kept);
                midLine = false;
            }
            while (position < size) {
                int n = read(ch, position, (int) Math.min(buf.length, size - position));
                if (n == 0) {
                    break; // shorter than it said: truncated under us
                }
                int start = 0;
                int nl;
                while ((nl = Newlines.indexOf(buf, start, n)) >= 0) {
                    if (!midLine && !ended && position + start >= index.covered()) {
                        return flushed(position + start);
                    }
                    writeLine(index, position + start, fallback, start, nl + 1);
                    midLine = false;
                    start = nl + 1;
                }
                // The rest of the chunk is the beginning of a line, or more of a long one.
                boolean fillsBuffer = start == 0 && n == buf.length;
                boolean last = ended && position + n >= size;
                if (start < n && (midLine || fillsBuffer || last)) {
                    if (!midLine && !ended && position + start >= index.covered()) {
                        return flushed(position + start);
                    }
                    writeLine(index, position + start, fallback, start, n);
                    midLine = true;
                    start = n;
                } else if (start < n && start == 0) {
                    return flushed(position); // a short line still without its newline: wait for it
                }
                position += start;
            }
            if (ended && midLine) {
                out.write('\n');
                midLine = false;
            }
        } catch (java.nio.file.NoSuchFileException moved) {
            // persisted as an artifact meanwhile; the caller picks it up there
        }
        return flushed(position);
    }

    /** Writes {@code buf[from, to)}, stamped when it starts a line. */
    private void writeLine(TimeIndex index, long at, long fallback, int from, int to) throws IOException {
        if (!midLine) {
            stamp(index, at, fallback);
        }
        out.write(buf, from, to - from);
    }

    /** Reads up to {@code length} bytes at {@code position} into the buffer; fewer only at the file's end. */
    private int read(FileChannel ch, long position, int length) throws IOException {
        ByteBuffer into = ByteBuffer.wrap(buf, 0, length);
        try {
            while (into.hasRemaining() && ch.read(into, position + into.position()) > 0) {
                // until full or at the end
            }
        } catch (dev.runboard.session.OutputFile.Dropped overtaken) {
            return 0; // max_output cut past this position meanwhile: the next copy goes on from the kept start
        }
        return into.position();
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
