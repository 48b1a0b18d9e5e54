package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends to a capture's {@link TimeIndex}: each {@link #sample} looks at the capture's size (one
 * fstat on a channel kept open) and writes an entry only when it grew. Used by one sampling
 * thread; never reads the capture's bytes.
 */
public final class TimeIndexWriter implements AutoCloseable {
    private final Path data;
    private FileChannel capture;
    private final FileChannel index;
    private final ByteBuffer entry = ByteBuffer.allocate(TimeIndex.ENTRY).order(ByteOrder.BIG_ENDIAN);
    private long lastSize;

    /**
     * Opens (or continues, for a session adopted from an owner that died) the index beside
     * {@code data}; a torn last entry is cut off first so that later entries stay aligned.
     */
    public TimeIndexWriter(Path data) throws IOException {
        this.data = data;
        Path file = TimeIndex.fileFor(data);
        boolean existed = Files.exists(file);
        this.index = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        if (!existed) {
            try {
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // the data dir's own protection applies
            }
        }
        long whole = index.size() - index.size() % TimeIndex.ENTRY;
        index.truncate(whole);
        index.position(whole);
        this.lastSize = TimeIndex.read(data).covered();
    }

    /** Records the capture's size at {@code nowMillis} if it grew; returns whether it did. */
    public boolean sample(long nowMillis) throws IOException {
        if (capture == null) {
            capture = FileChannel.open(data, StandardOpenOption.READ);
        }
        long size = capture.size();
        if (size <= lastSize) {
            return false;
        }
        entry.clear();
        entry.putLong(size).putLong(nowMillis).flip();
        while (entry.hasRemaining()) {
            index.write(entry);
        }
        lastSize = size;
        return true;
    }

    @Override
    public void close() {
        closeQuietly(capture);
        closeQuietly(index);
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // nothing buffered: each entry was written when it was sampled
            }
        }
    }
}
