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
    public long start() {
        return dev.runboard.session.OutputFile.start(channel);
    }

    @Override
    public int read(ByteBuffer into, long pos) throws IOException {
        int start = into.position();
        int n;
        while (into.hasRemaining()) {
            long at = pos + into.position() - start;
            try {
                n = channel.read(into, at);
            } catch (dev.runboard.session.OutputFile.Dropped gone) {
                // Bytes max_output dropped: newlines stand in for them, so no line reaches back into them (a page
                // holding the first kept line starts before it; nothing before the start is shown).
                long filler = Math.min(into.remaining(), dev.runboard.session.OutputFile.trim(channel).dropped() - at);
                for (long i = 0; i < Math.max(1, filler); i++) {
                    into.put((byte) '\n');
                }
                continue;
            }
            if (n <= 0) {
                break;
            }
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
