package dev.runboard.engine;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The supervisor's sign of life while a request lasts ({@code wait}, a kill's grace, a long
 * {@code list}): a heartbeat line every {@link #PERIOD} until the reply goes out, so that a client
 * can tell a request that takes long from a supervisor that stopped answering ({@link ReplyReader}).
 */
final class Heartbeats implements AutoCloseable {
    static final Duration PERIOD = Duration.ofSeconds(1);
    /** The whole heartbeat line; clients skip it ({@link ReplyReader#HEARTBEAT}). */
    private static final byte[] LINE = (ReplyReader.HEARTBEAT + "\n").getBytes(StandardCharsets.UTF_8);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "runboard-heartbeat");
        t.setDaemon(true);
        return t;
    });

    /**
     * The request's reply, sent on {@code out} once {@code answer} has made it, with heartbeats before
     * it while it takes longer than a period. A heartbeat never splits the reply, and is skipped while
     * the connection is busy writing (a reply on its way is itself a sign of life, and a client that
     * reads slowly must not hold up the timer the other connections share).
     */
    void reply(OutputStream out, Supplier<byte[]> answer) throws IOException {
        ReentrantLock writing = new ReentrantLock();
        byte[] reply;
        try (Beating beats = beat(out, writing, null)) { // the client left: its reply will fail the same way
            reply = answer.get();
        }
        writing.lock();
        try {
            out.write(reply);
            out.flush();
        } finally {
            writing.unlock();
        }
    }

    /** Heartbeats while a streamed reply lasts: stopped by {@link #close}. */
    interface Beating extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Beats on {@code out} every period until closed, under {@code writing}, which the streamed reply's
     * frames take too (a beat never splits a frame; one is skipped while a frame is being written). A
     * beat that fails means the client has gone: {@code worker}, which runs the request, is interrupted
     * (when given).
     */
    Beating beat(OutputStream out, ReentrantLock writing, Thread worker) {
        boolean[] done = {false};
        ScheduledFuture<?> beats = schedule(() -> {
            if (writing.tryLock()) {
                try {
                    if (!done[0]) {
                        out.write(LINE);
                        out.flush();
                    }
                } catch (IOException gone) {
                    if (worker != null) {
                        worker.interrupt();
                    }
                } finally {
                    writing.unlock();
                }
            }
        });
        return () -> {
            if (beats != null) {
                beats.cancel(false);
            }
            writing.lock();
            try {
                done[0] = true;
            } finally {
                writing.unlock();
            }
        };
    }

    /** The beats, or null once the supervisor is stopping (the replies still in flight go out without them). */
    private ScheduledFuture<?> schedule(Runnable beat) {
        try {
            return timer.scheduleAtFixedRate(beat, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            return null;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
