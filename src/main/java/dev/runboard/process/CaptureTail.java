package dev.runboard.process;

import dev.runboard.session.LiveOutput;
import dev.runboard.session.OutputPreview;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The live preview of a growing capture file: one channel kept open, and a re-read only when the
 * file has grown since the last look, of the tail alone once the head is fixed. The child writes
 * the file; this only reads it.
 */
public final class CaptureTail implements LiveOutput, AutoCloseable {
    private final Path file;
    private final int bound;
    private FileChannel channel;
    private long lastSize = -1;
    private OutputPreview last = OutputPreview.EMPTY;

    public CaptureTail(Path file, int bound) {
        this.file = file;
        this.bound = bound;
    }

    @Override
    public synchronized OutputPreview lastRead() {
        return last;
    }

    @Override
    public synchronized OutputPreview read() {
        try {
            if (channel == null) {
                channel = dev.runboard.session.OutputFile.open(file);
            }
            long size = channel.size();
            if (size != lastSize) {
                last = OutputPreview.readGrown(channel, size, bound, last); // a whole read when it shrank
                lastSize = size;
            }
        } catch (IOException e) {
            // The capture vanished or became unreadable: keep showing what was last read.
        }
        return last;
    }

    @Override
    public synchronized void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // read-only channel: nothing to flush
            }
            channel = null;
        }
    }
}
