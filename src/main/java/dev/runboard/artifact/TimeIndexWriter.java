package dev.runboard.artifact;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Appends to a capture's {@link TimeIndex}: each {@link #sample} looks at the capture's size (one
 * fstat on a file kept open) and writes an entry only when it grew. Used by one sampling
 * thread; never reads the capture's bytes.
 */
public final class TimeIndexWriter implements AutoCloseable {
    private final Path data;
    // RandomAccessFile rather than FileChannel: a tick runs every 50 ms, mostly in code not compiled yet, and
    // each of a channel's calls runs its interruptible-I/O bookkeeping around the one system call; this
    // cost 5 ms of CPU per second of a command's run, while the command ran (docs/BENCHMARKS.md §10, round 14).
    private java.nio.channels.FileChannel capture;
    private final RandomAccessFile index;
    private final byte[] entry = new byte[TimeIndex.ENTRY];
    private long lastSize;

    /**
     * Opens (or continues, for a session adopted from an owner that died) the index beside
     * {@code data}; a torn last entry is cut off first so that later entries stay aligned.
     */
    public TimeIndexWriter(Path data) throws IOException {
        this.data = data;
        Path file = TimeIndex.fileFor(data);
        boolean existed = Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        if (existed && !Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            // A link planted here would have this cut and write its target: a capture's index is ours, or nothing.
            throw new IOException(file + " is not a regular file: runboard does not write through it");
        }
        this.index = new RandomAccessFile(file.toFile(), "rw");
        if (!existed) {
            try {
                Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // the data dir's own protection applies
            }
        }
        long whole = index.length() - index.length() % TimeIndex.ENTRY;
        index.setLength(whole);
        index.seek(whole);
        this.lastSize = TimeIndex.read(data).covered();
    }

    /** Records the capture's size at {@code nowMillis} if it grew; returns whether it did. */
    public boolean sample(long nowMillis) throws IOException {
        if (capture == null) {
            // A link or a FIFO in the capture's place is refused; a capture kept to max_output is measured at the
            // whole output's offsets, which every reader of the index uses.
            capture = dev.runboard.session.OutputFile.open(data);
        }
        long size = capture.size();
        if (size <= lastSize) {
            return false;
        }
        putLong(size, 0);
        putLong(nowMillis, 8);
        index.write(entry);
        lastSize = size;
        return true;
    }

    /** Big-endian, as {@link TimeIndex} reads it. */
    private void putLong(long value, int at) {
        for (int i = at + 7; i >= at; i--) {
            entry[i] = (byte) value;
            value >>>= 8;
        }
    }

    @Override
    public void close() {
        if (capture != null) {
            try {
                capture.close();
            } catch (IOException ignored) {
                // read-only
            }
        }
        closeQuietly(index);
    }

    private static void closeQuietly(RandomAccessFile f) {
        if (f != null) {
            try {
                f.close();
            } catch (IOException ignored) {
                // nothing buffered: each entry was written when it was sampled
            }
        }
    }
}
