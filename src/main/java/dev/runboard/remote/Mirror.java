package dev.runboard.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The local copy of a remote session's output: the session's capture file, appended to in the
 * order the bytes were written there. Its size is the next byte to ask for, so a retry after a
 * dropped connection neither skips nor repeats a byte.
 */
final class Mirror {
    private final FileChannel channel;

    Mirror(Path capture) throws IOException {
        this.channel = FileChannel.open(capture, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        channel.position(channel.size());
    }

    long size() {
        try {
            return channel.position();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends exactly {@code length} bytes read from {@code in}; throws when the stream ends first. */
    void append(InputStream in, long length, byte[] buffer) throws IOException {
        long left = length;
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
    }

    void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing was pending: every append wrote through
        }
    }
}
