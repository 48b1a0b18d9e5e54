package dev.runboard.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Whole-file writes that are either fully there or not at all: a temp file beside the target,
 * written and fsynced, then renamed over it. The store's seam for failures: tests pass one that
 * fails like a full disk.
 */
public interface AtomicFiles {

    void write(Path target, byte[] content) throws IOException;

    /** The real file system. Files are created readable by their owner only. */
    AtomicFiles SYSTEM = (target, content) -> {
        Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            if (target.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(content);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    };
}
