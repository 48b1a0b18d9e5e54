package dev.runboard.process;

import dev.runboard.artifact.TimeIndex;
import dev.runboard.artifact.TimeIndexWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the {@link TimeIndex} of every running session this engine owns: one thread for all of
 * them, ticking every {@value #PERIOD_MILLIS} ms while at least one session runs (half the
 * promised {@link TimeIndex#RESOLUTION_MILLIS}, so a late tick on a busy machine still keeps the
 * promise), and idle otherwise. A tick costs one fstat per session and writes 16 bytes only for a
 * capture that grew: the command's own writes go straight to its file as before.
 */
final class TimeIndexSampler implements AutoCloseable {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(TimeIndexSampler.class.getName());
    }
    static final long PERIOD_MILLIS = 50;
    /** {@code -Drunboard.timeIndex=off}: no index at all, only for bench/time-index.sh to measure what it costs. */
    private static final boolean ENABLED = !"off".equals(System.getProperty("runboard.timeIndex"));

    private final Clock clock;
    private final Map<String, TimeIndexWriter> writers = new ConcurrentHashMap<>();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
            SessionEngine.daemonThreads("runboard-time-index"));
    private ScheduledFuture<?> ticking;

    TimeIndexSampler(Clock clock) {
        this.clock = clock;
    }

    /**
     * Starts indexing a session's capture: before its command is launched (so its first lines are
     * timed by the ticks, not by when the engine got round to managing it), or when it is adopted
     * (continuing its index). Watching a session already watched changes nothing.
     */
    synchronized void watch(String id, Path capture) {
        if (!ENABLED || writers.containsKey(id)) {
            return;
        }
        try {
            TimeIndexWriter w = new TimeIndexWriter(capture);
            writers.put(id, w);
            sample(id, w); // what the command wrote before it was managed gets the earliest time known
        } catch (IOException | RuntimeException e) {
            log().log(Level.WARNING, "no time index for " + id + ": " + e.getMessage());
            return;
        }
        if (ticking == null) {
            try {
                ticking = thread.scheduleAtFixedRate(this::tick, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                writers.remove(id).close(); // the engine is closing: the session runs on, without times from here
            }
        }
    }

    /** The session ended: a last entry for its last bytes, then the index is closed (before its capture moves). */
    synchronized void finish(String id) {
        TimeIndexWriter w = writers.remove(id);
        if (w != null) {
            sample(id, w);
            w.close();
        }
        stopWhenIdle();
    }

    /** A session that could not start: no index (its capture is deleted too). */
    synchronized void drop(String id, Path capture) {
        TimeIndexWriter w = writers.remove(id);
        if (w != null) {
            w.close();
        }
        try {
            java.nio.file.Files.deleteIfExists(TimeIndex.fileFor(capture));
        } catch (IOException ignored) {
            // an empty index beside a missing capture is harmless
        }
        stopWhenIdle();
    }

    private void stopWhenIdle() {
        if (writers.isEmpty() && ticking != null) {
            ticking.cancel(false);
            ticking = null;
        }
    }

    private synchronized void tick() {
        writers.forEach(this::sample);
    }

    private void sample(String id, TimeIndexWriter w) {
        try {
            w.sample(clock.millis());
        } catch (IOException e) {
            // The capture moved or vanished between ticks: its end is recorded by finish, or lost with it.
        }
    }

    @Override
    public synchronized void close() {
        writers.values().forEach(TimeIndexWriter::close);
        writers.clear();
        thread.shutdownNow();
    }
}
