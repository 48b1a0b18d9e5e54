package dev.runboard.ui.viewer;

import dev.runboard.artifact.ByteSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import javafx.concurrent.Task;

/**
 * Saves a whole output to a file the user picked, from wherever its bytes are (a local file, or a
 * remote output by ranges over the host's connection), into {@code TARGET.part} first: a cancelled
 * or failed download leaves no half file under the chosen name. A file still being written is
 * saved as far as it reached when the copy got to its end.
 */
public final class Download extends Task<Long> {
    private static final int CHUNK = 4 << 20;
    private final Callable<ByteSource> open;
    private final Path target;

    public Download(Callable<ByteSource> open, Path target) {
        this.open = open;
        this.target = target;
    }

    @Override
    protected Long call() throws Exception {
        Path part = target.resolveSibling(target.getFileName() + ".part");
        long pos = 0;
        long first = 0;
        try (ByteSource source = open.call();
             FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                     StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
            long size = source.size();
            pos = source.start(); // the kept output of a capture max_output trimmed, from its first whole line
            first = pos;
            while (!isCancelled()) {
                buffer.clear();
                int n = source.read(buffer, pos);
                if (n <= 0) {
                    break;
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                pos += n;
                size = Math.max(size, pos);
                updateProgress(pos - first, size - first);
                updateMessage(String.format(java.util.Locale.ROOT, "Downloading %d%%",
                        (int) (100 * (pos - first) / Math.max(1, size - first))));
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(part);
            throw e;
        }
        if (isCancelled()) {
            Files.deleteIfExists(part);
            return pos - first;
        }
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return pos - first;
    }
}
