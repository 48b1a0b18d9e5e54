package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** A local file's bytes, read with positional reads (safe from several threads). */
final class FileBytes implements ByteSource {
    private final FileChannel channel;

    FileBytes(Path file) throws IOException {
        this.channel = dev.runboard.session.OutputFile.open(file);
    }

    @Override
    public long size() throws IOException {
        return channel.size();
    }

    @Override
    public int read(ByteBuffer into, long pos) throws IOException {
        int start = into.position();
        int n;
        while (into.hasRemaining() && (n = channel.read(into, pos + into.position() - start)) > 0) {
            // until full or at the end
        }
        return into.position() - start;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // read-only
        }
    }
}
