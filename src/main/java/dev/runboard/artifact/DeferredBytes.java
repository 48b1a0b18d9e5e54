package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Callable;

/**
 * A source opened on its first use rather than where it is named: the window names a remote
 * output on the FX thread, and reaching its host (ssh, the local host name) must happen on the
 * viewer's worker.
 */
public final class DeferredBytes implements ByteSource {
    private final Callable<ByteSource> open;
    private ByteSource source;

    public DeferredBytes(Callable<ByteSource> open) {
        this.open = open;
    }

    private synchronized ByteSource source() throws IOException {
        if (source == null) {
            try {
                source = open.call();
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        return source;
    }

    @Override
    public long size() throws IOException {
        return source().size();
    }

    @Override
    public int read(ByteBuffer into, long pos) throws IOException {
        return source().read(into, pos);
    }

    @Override
    public synchronized void close() {
        if (source != null) {
            source.close();
        }
    }
}
