package dev.runboard.process;

import dev.runboard.artifact.TimeIndex;
import dev.runboard.artifact.TimeIndexWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the {@link TimeIndex} of every running session this engine owns: one thread for all of
 * them, ticking every {@value #PERIOD_MILLIS} ms while at least one session runs (half the
 * promised {@link TimeIndex#RESOLUTION_MILLIS}, so a late tick on a busy machine still keeps the
 * promise), and waiting otherwise. A tick costs one fstat per session and writes 16 bytes only for a
 * capture that grew: the command's own writes go straight to its file as before.
 *
 * <p>A plain thread that sleeps, not a scheduled executor: a tick runs 20 times a second in code
 * mostly not compiled yet, and the executor's queue and locks around each one cost 5 ms of CPU per
 * second of a command's run, taken from the command on a busy machine (docs/BENCHMARKS.md §10, round 14).
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
    /** By session id; guarded by this. */
    private final Map<String, TimeIndexWriter> writers = new HashMap<>();
    /** Started at the first watch; guarded by this. */
    private Thread thread;
    private boolean closed;

    TimeIndexSampler(Clock clock) {
        this.clock = clock;
    }

    /**
     * Starts indexing a session's capture: before its command is launched (so its first lines are
     * timed by the ticks, not by when the engine got round to managing it), or when it is adopted
     * (continuing its index). Watching a session already watched changes nothing.
     */
    synchronized void watch(String id, Path capture) {
        if (!ENABLED || closed || writers.containsKey(id)) {
            return;
        }
        try {
            TimeIndexWriter w = new TimeIndexWriter(capture);
            writers.put(id, w);
            sample(w); // what the command wrote before it was managed gets the earliest time known
        } catch (IOException | RuntimeException e) {
            log().log(Level.WARNING, "no time index for " + id + ": " + e.getMessage());
            return;
        }
        if (thread == null) {
            thread = new Thread("runboard-time-index") {
                @Override
                public void run() {
                    TimeIndexSampler.this.run(); // a subclass, not a lambda: linking one costs an exec's JVM ~0.4 ms
                }
            };
            thread.setDaemon(true);
            thread.start();
        }
        notifyAll();
    }

    /** The session ended: a last entry for its last bytes, then the index is closed (before its capture moves). */
    synchronized void finish(String id) {
        TimeIndexWriter w = writers.remove(id);
        if (w != null) {
            sample(w);
            w.close();
        }
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
    }

    /** The thread: a tick every period while anything is watched, a wait for the next watch otherwise. */
    private void run() {
        try {
            while (awaitWork()) {
                Thread.sleep(PERIOD_MILLIS);
                tick();
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** Waits while nothing is watched; false once closed. */
    private synchronized boolean awaitWork() throws InterruptedException {
        while (writers.isEmpty() && !closed) {
            wait();
        }
        return !closed;
    }

    private synchronized void tick() {
        for (TimeIndexWriter w : writers.values()) {
            sample(w);
        }
    }

    private void sample(TimeIndexWriter w) {
        try {
            w.sample(clock.millis());
        } catch (IOException e) {
            // The capture moved or vanished between ticks: its end is recorded by finish, or lost with it.
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (TimeIndexWriter w : writers.values()) {
            w.close();
        }
        writers.clear();
        notifyAll();
        if (thread != null) {
            thread.interrupt();
        }
    }
}
