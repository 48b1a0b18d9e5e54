package dev.runboard.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
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

    /** The real file system. Files are created readable by their owner only. */
    AtomicFiles SYSTEM = new AtomicFiles() {
        @Override
        public void write(Path target, byte[] content) throws IOException {
            Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
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

        private static void writeFully(FileChannel ch, byte[] content) throws IOException {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        }
    };
}
