package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * A cursor over one capture's whole lines, each with the time its {@link TimeIndex} gives it: what
 * a merged log reads from each run. While the run goes on only lines the index already reaches
 * are read, and a line still without its newline waits; once it has ended every line is, the last
 * one without a newline too, and lines past the index take the file's last-modified time.
 *
 * <p>Reads a bounded chunk at a time ({@link #CHUNK}); a line longer than a chunk comes out in
 * chunk-sized pieces, so memory stays bounded whatever the output's shape. Every byte is read
 * once: the position only moves forward, past lines already handed out.
 */
public final class TimedLines {
    /** Bytes read per refill, and the longest piece a line comes out as. */
    static final int CHUNK = 64 * 1024;

    /** One line: where it starts in the capture, when it was written (epoch millis), its bytes without the newline. */
    public record Line(long offset, long millis, byte[] bytes) {
    }

    private Path file;
    private long position;
    private final Deque<Line> buffered = new ArrayDeque<>();
    private TimeIndex index;
    private long indexedAtSize = -1;

    public TimedLines(Path file) {
        this.file = file;
    }

    /** The run's output moved (its capture became an artifact at the end): the same bytes, so the position stays. */
    public void moveTo(Path newFile) {
        if (!newFile.equals(file)) {
            file = newFile;
            indexedAtSize = -1;
        }
    }

    /** The next line without taking it, or null when none is readable now. */
    public Line peek(boolean ended) throws IOException {
        if (buffered.isEmpty()) {
            refill(ended);
        }
        return buffered.peekFirst();
    }

    /** Takes the line {@link #peek} gave. */
    public Line take() {
        return buffered.pollFirst();
    }

    private void refill(boolean ended) throws IOException {
        long size;
        byte[] chunk;
        try (FileChannel ch = dev.runboard.session.OutputFile.open(file)) {
            size = ch.size();
            if (size < position) {
                position = size; // trimmed under us (max_output): nothing before the end is ours to repeat
            }
            if (size != indexedAtSize) {
                index = TimeIndex.read(file);
                indexedAtSize = size;
            }
            long limit = ended ? size : Math.min(size, index.covered());
            if (limit <= position) {
                return;
            }
            chunk = read(ch, position, (int) Math.min(CHUNK, limit - position));
            if (chunk.length == 0) {
                return;
            }
            split(chunk, ended && position + chunk.length >= size, fallback(ended));
        } catch (NoSuchFileException moved) {
            // became an artifact meanwhile: the caller finds it there and moves this cursor
        }
    }

    /** The time of lines the index does not reach: the file's last change, only once the run has ended. */
    private long fallback(boolean ended) throws IOException {
        return ended ? Files.getLastModifiedTime(file).toMillis() : -1;
    }

    private void split(byte[] chunk, boolean lastOfFile, long fallback) {
        int start = 0;
        for (int i = 0; i < chunk.length; i++) {
            if (chunk[i] == '\n') {
                add(chunk, start, i, fallback);
                start = i + 1;
            }
        }
        if (start < chunk.length && (lastOfFile || start == 0 && chunk.length == CHUNK)) {
            add(chunk, start, chunk.length, fallback); // the unterminated last line, or a piece of a very long one
            start = chunk.length;
        }
        position += start;
    }

    private void add(byte[] chunk, int from, int to, long fallback) {
        long at = position + from;
        long millis = index.timeOf(at);
        if (millis < 0) {
            millis = fallback >= 0 ? fallback : System.currentTimeMillis();
        }
        int end = to > from && chunk[to - 1] == '\r' ? to - 1 : to; // a CRLF line is one line
        buffered.addLast(new Line(at, millis, Arrays.copyOfRange(chunk, from, end)));
    }

    private static byte[] read(FileChannel ch, long position, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length);
        while (buf.hasRemaining() && ch.read(buf, position + buf.position()) > 0) {
            // until full or at the end
        }
        return Arrays.copyOf(buf.array(), buf.position());
    }
}
