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

    @Override
    void close();

    /** A local file. */
    static ByteSource of(Path file) throws IOException {
        return new FileBytes(file);
    }
}
