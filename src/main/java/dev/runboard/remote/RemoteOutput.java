package dev.runboard.remote;

import dev.runboard.artifact.ByteSource;
import dev.runboard.session.InvalidSpecException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One session's output file on its host, read by byte ranges over the host's connection (the
 * helper's {@code read} and {@code size}): what the viewer pages through before (or without) the
 * whole output being mirrored here. Its size is asked at most once a second; every read brings it
 * too.
 */
final class RemoteOutput implements ByteSource {
    private static final long SIZE_FRESH_NANOS = 1_000_000_000L;

    private final HostLink link;
    private final String sessionId;
    private final AtomicLong fetched = new AtomicLong();
    private long size = -1;
    private long sizeAt;

    RemoteOutput(HostLink link, String sessionId) {
        this.link = link;
        this.sessionId = sessionId;
    }

    @Override
    public synchronized long size() throws IOException {
        if (size < 0 || System.nanoTime() - sizeAt > SIZE_FRESH_NANOS) {
            SshCommand.Result r = link.ssh().run(link.helper("size", sessionId), null);
            noted(Long.parseLong(answer(r)));
        }
        return size;
    }

    @Override
    public int read(ByteBuffer into, long pos) throws IOException {
        SshCommand.Result r = link.ssh().run(link.helper("read", sessionId, Long.toString(pos),
                Integer.toString(into.remaining())), null);
        String[] header = answer(r).split(" ");
        int start = r.text().indexOf('\n') + 1;
        int length = Integer.parseInt(header[1]);
        if (header.length != 2 || start + length > r.out().length) {
            throw new IOException("host " + link.host() + ": the output of " + sessionId + " came back cut short");
        }
        synchronized (this) {
            noted(Long.parseLong(header[0]));
        }
        into.put(r.out(), start, length);
        fetched.addAndGet(length);
        return length;
    }

    private void noted(long now) {
        size = now;
        sizeAt = System.nanoTime();
    }

    /** The output's bytes brought from the host so far (the viewer's test counts them). */
    long fetchedBytes() {
        return fetched.get();
    }

    private String answer(SshCommand.Result r) throws IOException {
        try {
            return RemoteInstall.answer(link.ssh(), r);
        } catch (InvalidSpecException e) {
            throw new IOException(e.getMessage());
        }
    }

    @Override
    public void close() {
        // the host's connection is shared; nothing of this reader's own stays open
    }
}
