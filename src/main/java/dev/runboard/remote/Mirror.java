package dev.runboard.remote;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The local copy of a remote session's output: the session's capture file, appended to in the
 * order the bytes were written there. Its size is the next byte to ask for, so a retry after a
 * dropped connection neither skips nor repeats a byte. Two sources fill it, one at a time: the
 * session's output stream ({@link SessionStreams}: ssh writes the file itself) and, while the
 * session has none, the poll, which appends here. The size is the file's, read at each ask, so the
 * poll continues where the stream left off; the poll's bytes say from which offset they are, and
 * only those past the end are kept, so nothing is doubled.
 */
final class Mirror {
    private final FileChannel channel;
    /** Where the bytes of the poll in flight start (the size it asked from). */
    private long pollFrom;
    private boolean closed;

    Mirror(Path capture) throws IOException {
        // Appending, as the stream's ssh does: every write goes to the file's end, whoever wrote last.
        this.channel = FileChannel.open(capture, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        this.pollFrom = channel.size();
    }

    /** The bytes here: the file's size (a closed mirror keeps the last it knew). */
    synchronized long size() {
        try {
            return closed ? pollFrom : channel.size();
        } catch (IOException e) {
            return pollFrom;
        }
    }

    /** The poll about to be sent asks for the output from the mirror's end: returns that offset. */
    synchronized long startPoll() {
        pollFrom = size();
        return pollFrom;
    }

    /** Appends {@code length} bytes of a poll's answer (they continue from {@link #startPoll()}). */
    synchronized void append(InputStream in, long length, byte[] buffer) throws IOException {
        appendAt(pollFrom, in, length, buffer);
        pollFrom += length;
    }

    /**
     * Reads exactly {@code length} bytes from {@code in}, the output from {@code offset} on, and
     * appends those past the mirror's end. False when they start after the end (a gap: the source
     * must ask again from {@link #size()}); the bytes are read either way (and dropped once closed).
     */
    synchronized boolean appendAt(long offset, InputStream in, long length, byte[] buffer) throws IOException {
        long size = size();
        if (closed || offset > size) {
            skip(in, length, buffer);
            return closed;
        }
        long known = Math.min(length, size - offset);
        skip(in, known, buffer);
        long left = length - known;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("the connection ended in the middle of the output");
            }
            ByteBuffer b = ByteBuffer.wrap(buffer, 0, n);
            while (b.hasRemaining()) {
                channel.write(b);
            }
            left -= n;
        }
        return true;
    }

    private static void skip(InputStream in, long length, byte[] buffer) throws IOException {
        long left = length;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("the connection ended in the middle of the output");
            }
            left -= n;
        }
    }

    synchronized boolean closed() {
        return closed;
    }

    synchronized void close() {
        pollFrom = size();
        closed = true;
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing was pending: every append wrote through
        }
    }
}
