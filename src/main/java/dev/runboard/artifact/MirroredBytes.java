package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * An output kept on another host whose local mirror may hold only its start: bytes the mirror has
 * are read here, the rest from the host by byte range, so the end of a large remote output shows
 * without bringing the whole of it.
 */
public final class MirroredBytes implements ByteSource {
    private final ByteSource local;
    private final ByteSource remote;

    public MirroredBytes(Path mirror, ByteSource remote) throws IOException {
        this.local = ByteSource.of(mirror);
        this.remote = remote;
    }

    @Override
    public long size() throws IOException {
        return Math.max(local.size(), remote.size());
    }

    @Override
    public int read(ByteBuffer into, long pos) throws IOException {
        long here = local.size();
        int done = 0;
        if (pos < here) {
            ByteBuffer part = into.slice(into.position(), (int) Math.min(into.remaining(), here - pos));
            done = local.read(part, pos);
            into.position(into.position() + done);
        }
        if (into.hasRemaining() && pos + done >= here) {
            done += remote.read(into, pos + done);
        }
        return done;
    }

    @Override
    public void close() {
        local.close();
        remote.close();
    }
}
