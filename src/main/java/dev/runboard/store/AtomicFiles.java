package dev.runboard.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Whole-file writes that are either fully there or not at all: a temp file beside the target,
 * written and fsynced, then renamed over it. The store's seam for failures: tests pass one that
 * fails like a full disk.
 */
public interface AtomicFiles {

    void write(Path target, byte[] content) throws IOException;

    /**
     * As {@link #write}, the temp file being {@code space}, a file set aside earlier by
     * {@link #reserve}: it is overwritten in place, so the write needs no free space up to the
     * reserved size, then renamed over the target. Without {@code space} (never reserved, or
     * already used) this is a plain {@link #write}. Failing leaves {@code space} for another try.
     */
    default void writeInto(Path space, Path target, byte[] content) throws IOException {
        Files.deleteIfExists(space);
        write(target, content);
    }

    /**
     * Sets aside {@code bytes} of the disk as a new file (0600) of zeros, so that a later
     * {@link #writeInto} of up to that size succeeds even when the disk has filled up meanwhile.
     */
    default void reserve(Path space, long bytes) throws IOException {
        Files.deleteIfExists(space);
        DataDirs.createPrivateFile(space);
        try (FileChannel ch = FileChannel.open(space, StandardOpenOption.WRITE)) {
            // Written, not just sized: a sparse file holds no blocks. Zeros, because file systems
            // that give blocks only when a write reaches them (delayed allocation) still count the
            // written ones against the free space at once.
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(bytes, 64 * 1024));
            for (long left = bytes; left > 0; ) {
                zeros.clear().limit((int) Math.min(left, zeros.capacity()));
                left -= ch.write(zeros);
            }
        } catch (IOException e) {
            Files.deleteIfExists(space);
            throw e;
        }
    }

    /** The real file system. Files are created readable by their owner only. */
    AtomicFiles SYSTEM = new AtomicFiles() {
        /** Numbers this process's temp files: two writers of one target (threads, or processes) each have their own. */
        private final java.util.concurrent.atomic.AtomicLong serial = new java.util.concurrent.atomic.AtomicLong();

        @Override
        public void write(Path target, byte[] content) throws IOException {
            // A temp name of this writer's own: with one name for all, ten `exec`s started at once in a new data dir,
            // each installing the session wrapper, deleted or renamed each other's temp file, and one failed with
            // "could not install the session wrapper" (the last whole write wins; each one is whole).
            Path tmp = target.resolveSibling("." + target.getFileName() + "." + ProcessHandle.current().pid()
                    + "-" + serial.incrementAndGet() + ".tmp");
            try {
                Files.deleteIfExists(tmp);
                DataDirs.createPrivateFile(tmp);
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                    writeFully(ch, content);
                    ch.force(true);
                }
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        }

        @Override
        public void writeInto(Path space, Path target, byte[] content) throws IOException {
            if (!Files.isRegularFile(space, LinkOption.NOFOLLOW_LINKS)) {
                write(target, content);
                return;
            }
            // No CREATE, no TRUNCATE: the reserved blocks are overwritten, then what is left over is cut.
            try (FileChannel ch = FileChannel.open(space, StandardOpenOption.WRITE)) {
                writeFully(ch, content);
                ch.truncate(content.length);
                ch.force(true);
            }
            Files.move(space, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }

        private static void writeFully(FileChannel ch, byte[] content) throws IOException {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        }
    };
}
