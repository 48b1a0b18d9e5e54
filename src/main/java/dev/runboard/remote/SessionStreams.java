package dev.runboard.remote;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The output of a host's running sessions as it is written: one ssh call per session over the host's multiplexed
 * connection, running the helper's {@code follow ID OFFSET}, whose stdout is the session's local capture itself
 * from that offset on. The master writes the bytes straight into the file: nothing in runboard reads or copies
 * them, where a stream shared by all of a host's sessions needs a local process to split it, one more copy of
 * every byte (docs/BENCHMARKS.md §12). Each call asks from the capture's end, so a call made again after a dropped
 * connection neither skips nor repeats a byte; and each writes its bytes at their own offsets, so a stream left
 * over from an owner that died writes the same bytes where they already are ({@link SshCommand#startOverMaster}). sshd caps the channels of a connection ({@code MaxSessions}, 10 by
 * default): at most {@link #MAX_OPEN} streams are open per host (fewer once a host's sshd refuses one), and the
 * poll brings the output of a session without one, as it does while the connection is down.
 */
final class SessionStreams implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SessionStreams.class.getName());
    /** Streams open at once on one connection: sshd's default MaxSessions of 10, less room for the poll, kills, sends and reads. */
    static final int MAX_OPEN = 6;
    private static final Duration RETRY_FIRST = Duration.ofSeconds(1);
    private static final Duration RETRY_MAX = Duration.ofMinutes(1);
    /** A stream that ended sooner than this after its start counts as failing: its retries back off. */
    private static final Duration HEALTHY = Duration.ofSeconds(5);

    /** The helper's command line that follows a session from an offset. */
    @FunctionalInterface
    interface Command {
        String follow(String sessionId, long offset) throws IOException;
    }

    private final SshCommand ssh;
    /** Told when a stream ended because ssh lost its connection (not because it was stopped). */
    private final Runnable dropped;
    /** Told when a session's command has ended and all its output is here (its status is to be polled now). */
    private final Runnable sessionDone;
    private final Map<String, Stream> open = new HashMap<>();
    private final Map<String, Long> retryAt = new HashMap<>();
    private final Map<String, Duration> retry = new HashMap<>();
    private int limit = MAX_OPEN;
    private boolean closed;
    /** The master was found down during this poll: the other sessions' streams wait for the next (each look is a process). */
    private boolean noMaster;

    private record Stream(Process process, long startedAt) {
    }

    SessionStreams(SshCommand ssh, Runnable dropped, Runnable sessionDone) {
        this.ssh = ssh;
        this.dropped = dropped;
        this.sessionDone = sessionDone;
    }

    /**
     * Whether the session's output is streaming, opening its stream when there is room on the connection, the
     * master runs and its retry time has come: then the poll leaves its output to the stream.
     */
    synchronized boolean ensureOpen(Followed f, Command command) throws IOException {
        if (noMaster) {
            return false;
        }
        String id = f.session().id();
        if (open.containsKey(id)) {
            return true;
        }
        Long notBefore = retryAt.get(id);
        if (closed || open.size() >= limit || notBefore != null && System.nanoTime() - notBefore < 0) {
            return false;
        }
        long from = f.mirror().size();
        Process p = ssh.startOverMaster(command.follow(id, from), f.session().captureFile(), from);
        if (p == null) {
            noMaster = true;
            return false; // the poll (re)opens the master; the stream rides on it from the next poll on
        }
        Stream s = new Stream(p, System.nanoTime());
        open.put(id, s);
        p.onExit().thenRun(() -> ended(id, s));
        return true;
    }

    /** A poll begins: its streams may look for the master again. */
    synchronized void newPoll() {
        noMaster = false;
    }

    /** Whether a stream of this host is open now. */
    synchronized boolean anyOpen() {
        return !open.isEmpty();
    }

    /** No more output of this session (it ended and every byte is here, or it is no longer followed). */
    synchronized void stop(String id) {
        Stream s = open.remove(id);
        retryAt.remove(id);
        retry.remove(id);
        if (s != null) {
            s.process().destroy();
        }
    }

    private void ended(String id, Stream s) {
        int exit = s.process().exitValue();
        String err = errors(s.process());
        synchronized (this) {
            if (!open.remove(id, s)) {
                return; // stopped here: nothing to tell
            }
            long now = System.nanoTime();
            if (err.contains("open failed")) {
                // The host's sshd allows fewer channels on a connection: keep below what it took.
                limit = Math.max(1, open.size());
                LOG.fine(() -> ssh.host() + " refused another channel; streaming " + limit + " sessions at most");
            }
            if (exit == 0) {
                sessionDone.run();
                return;
            }
            boolean brief = now - s.startedAt() < HEALTHY.toNanos();
            Duration wait = !brief ? Duration.ZERO : retry.getOrDefault(id, RETRY_FIRST);
            retry.put(id, !brief ? RETRY_FIRST : wait.multipliedBy(2).compareTo(RETRY_MAX) > 0 ? RETRY_MAX : wait.multipliedBy(2));
            retryAt.put(id, now + wait.toNanos());
            LOG.log(Level.FINE, "the output stream of {0} on {1} ended (exit {2}): {3}", new Object[] {id, ssh.host(), exit, err});
        }
        if (exit == 255 && !err.contains("open failed")) {
            dropped.run();
        }
    }

    /**
     * What ssh said before it exited, as far as it is in the pipe: never waited for, since a call that found the master
     * gone becomes the host's master itself and, persisting, holds the pipe open after this call has ended.
     */
    private static String errors(Process p) {
        try (InputStream in = p.getErrorStream()) {
            return new String(in.readNBytes(Math.min(in.available(), 4096)), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        open.values().forEach(s -> s.process().destroy());
        open.clear();
    }
}
