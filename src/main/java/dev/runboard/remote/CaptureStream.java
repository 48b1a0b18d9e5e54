package dev.runboard.remote;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A host's output stream: one ssh call kept open over the host's multiplexed connection, running
 * the helper's {@code follow}, which sends each followed session's new output as soon as it is
 * written, in frames that say where their bytes belong ({@code ID OFFSET LENGTH}, then the bytes).
 * It spares the bytes one ssh channel and one perl start per poll; the poll still reports sizes,
 * statuses and liveness. When the connection drops the call ends; it is opened again (asking each
 * session from its mirror's end, so nothing is lost or doubled), and until then the poll carries
 * the output as before.
 */
final class CaptureStream implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(CaptureStream.class.getName());
    private static final Duration RETRY_FIRST = Duration.ofSeconds(1);
    private static final Duration RETRY_MAX = Duration.ofMinutes(1);
    /** A stream that ended sooner than this after its start counts as failing: its retries back off. */
    private static final Duration HEALTHY = Duration.ofSeconds(5);

    private final SshCommand ssh;
    private final Map<String, HostLink.Followed> followed;
    private Process process;
    private OutputStream requests;
    private Thread reader;
    private long startedAt;
    private long nextStartAt = System.nanoTime();
    private Duration retry = RETRY_FIRST;
    private boolean closed;

    /** Told when the stream ended because ssh lost its connection (not because it was closed). */
    private final Runnable dropped;
    /** Told when a session's command has ended and all its output was sent (its status is to be polled now). */
    private final Runnable sessionDone;

    CaptureStream(SshCommand ssh, Map<String, HostLink.Followed> followed, Runnable dropped, Runnable sessionDone) {
        this.ssh = ssh;
        this.followed = followed;
        this.dropped = dropped;
        this.sessionDone = sessionDone;
    }

    /** Whether the stream is open: the poll then leaves the output to it. */
    synchronized boolean isOpen() {
        return process != null && reader.isAlive();
    }

    /**
     * Opens the stream with {@code command} (the helper's follow) unless it is open or its retry
     * time has not come; true when it is open.
     */
    synchronized boolean ensureOpen(String command) {
        if (closed) {
            return false;
        }
        if (isOpen()) {
            return true;
        }
        if (System.nanoTime() - nextStartAt < 0) {
            return false;
        }
        try {
            Process p = ssh.startOverMaster(command);
            if (p == null) {
                return false; // the poll (re)opens the master; the stream rides on it from the next poll on
            }
            process = p;
            requests = p.getOutputStream();
            for (HostLink.Followed f : followed.values()) {
                requests.write(line(f.session().id() + " " + f.mirror().size()));
            }
            requests.flush();
            startedAt = System.nanoTime();
            reader = new Thread(() -> readFrames(p), "runboard-ssh-stream-" + ssh.host());
            reader.setDaemon(true);
            reader.start();
            return true;
        } catch (IOException e) {
            LOG.log(Level.FINE, "could not open the output stream from " + ssh.host(), e);
            if (process != null) {
                ended(process);
            } else {
                nextStartAt = System.nanoTime() + retry.toNanos();
            }
            return false;
        }
    }

    /** Asks for a session's output from {@code offset} on (a new session, or again after a gap). */
    synchronized void follow(String id, long offset) {
        send(id + " " + offset);
    }

    /** No more output of this session (it ended, every byte is here). */
    synchronized void unfollow(String id) {
        send("-" + id);
    }

    private void send(String request) {
        if (process == null) {
            return; // the next open asks for every followed session
        }
        try {
            requests.write(line(request));
            requests.flush();
        } catch (IOException e) {
            // the stream is ending: its reader sees that, and the next open starts over
        }
    }

    private void readFrames(Process p) {
        InputStream in = new BufferedInputStream(p.getInputStream(), 1 << 16);
        byte[] buffer = new byte[1 << 16];
        try {
            String header;
            while ((header = HelperLines.read(in, "a frame")) != null) {
                String[] f = header.split(" ");
                if (f.length != 3) {
                    throw new IOException("the remote helper's stream sent something unexpected: " + header);
                }
                long offset = Long.parseLong(f[1]);
                long length = Long.parseLong(f[2]);
                HostLink.Followed s = followed.get(f[0]);
                if (length == 0) {
                    sessionDone.run(); // the helper's end frame: every byte of this session is sent
                } else if (s == null) {
                    in.skipNBytes(length);
                } else if (!s.mirror().appendAt(offset, in, length, buffer)) {
                    follow(f[0], s.mirror().size()); // bytes past a gap: ask again from the mirror's end
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "the output stream from " + ssh.host() + " ended", e);
        } finally {
            boolean lost = lostConnection(p);
            boolean ours = ended(p);
            if (lost && ours) {
                dropped.run();
            }
        }
    }

    /** Whether ssh ended with its own failure (255: the connection went), waiting a moment for its exit. */
    private static boolean lostConnection(Process p) {
        try {
            return p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 255;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The stream ended (or could not start): the next open waits for the retry time. False when it was already stopped here. */
    private synchronized boolean ended(Process p) {
        if (process != p) {
            return false;
        }
        boolean brief = System.nanoTime() - startedAt < HEALTHY.toNanos();
        retry = !brief ? RETRY_FIRST : retry.multipliedBy(2).compareTo(RETRY_MAX) > 0 ? RETRY_MAX : retry.multipliedBy(2);
        nextStartAt = System.nanoTime() + (brief ? retry.toNanos() : 0);
        stop();
        return !closed;
    }

    private void stop() {
        Process p = process;
        process = null;
        if (p != null) {
            try {
                requests.close(); // the helper ends at the end of its input
            } catch (IOException ignored) {
                // already gone
            }
            p.destroy();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        stop();
    }

    private static byte[] line(String text) {
        return (text + "\n").getBytes(StandardCharsets.UTF_8);
    }

}
