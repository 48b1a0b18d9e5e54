package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Where a viewed file's bytes come from: a local file, or an output that is partly or wholly on
 * another host, read by byte ranges as pages are needed. It may grow while it is read.
 */
public interface ByteSource extends AutoCloseable {
    /** The size now (a source may cache it briefly: asking a remote host costs a round trip). */
    long size() throws IOException;

    /** Reads from {@code pos} into {@code into} until it is full or the source ends; the bytes read (0 at the end). */
    int read(ByteBuffer into, long pos) throws IOException;

    /**
     * Where the output's first whole line starts: past the bytes a capture kept to max_output dropped
     * (reading before it gives filler, never shown), else 0.
     */
    default long start() throws IOException {
        return 0;
    }

    @Override
    void close();

    /** A local file. */
    static ByteSource of(Path file) throws IOException {
        return new FileBytes(file);
    }
}
