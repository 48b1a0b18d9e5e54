package dev.runboard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A thin client's stdin as the supervisor receives it over the client's connection ({@link ThinClientCall},
 * docs/PROTOCOL.md): asked for with {@code {"v":4,"want_in":true}} the first time the command reads it, so that a
 * command that reads no input never takes the client's (a {@code runboard kill} in a {@code while read} loop).
 * From then on the client sends {@code {"v":4,"in":HEX}} frames, {@code {"v":4,"in_end":true}} at the end of its
 * input, and {@code {"v":4,"signal":"INT"}} when it is interrupted (Ctrl-C); a signal, or the connection's end
 * (the client gone), interrupts the command's thread, which ends its waits, as a client gone does otherwise.
 */
final class RelayedInput extends InputStream {
    private static final Logger LOG = Logger.getLogger(RelayedInput.class.getName());
    private static final byte[] END = new byte[0];
    private static final HexFormat HEX = HexFormat.of();

    private final BufferedReader connection;
    private final OutputStream socket;
    private final ReentrantLock writing;
    private final Thread worker;
    private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private byte[] current;
    private int at;
    private boolean asked;
    /** Set once the call has ended: a late signal or end of the connection must not interrupt the thread's next task. */
    private boolean finished;

    RelayedInput(BufferedReader connection, OutputStream socket, ReentrantLock writing, Thread worker) {
        this.connection = connection;
        this.socket = socket;
        this.writing = writing;
        this.worker = worker;
    }

    /** The input, asked of the client on first use. */
    synchronized InputStream open() {
        if (!asked) {
            asked = true;
            writing.lock();
            try {
                socket.write(("{\"v\":" + Protocol.VERSION + ",\"want_in\":true}\n").getBytes(StandardCharsets.US_ASCII));
                socket.flush();
                Thread reader = new Thread(this::receive, "runboard-client-input");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException gone) {
                chunks.add(END);
                worker.interrupt();
            } finally {
                writing.unlock();
            }
        }
        return this;
    }

    /** The call has ended: its thread is not to be interrupted any more, and a reader of the input sees its end. */
    synchronized void finish() {
        finished = true;
        chunks.add(END);
    }

    private void receive() {
        try {
            for (JsonNode frame; (frame = Protocol.receive(connection)) != null; ) {
                if (frame.has("in")) {
                    byte[] bytes = HEX.parseHex(frame.path("in").asText());
                    if (bytes.length > 0) {
                        chunks.add(bytes);
                    }
                } else if (frame.path("in_end").asBoolean()) {
                    chunks.add(END);
                } else if (frame.has("signal")) {
                    interruptCall();
                } else {
                    LOG.log(Level.FINE, "a thin client sent what its input relay does not know: {0}", frame);
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            LOG.log(Level.FINE, "a thin client's input ended", e);
        }
        chunks.add(END);
        interruptCall(); // the client has gone: its command stops waiting for it
    }

    private synchronized void interruptCall() {
        if (!finished) {
            worker.interrupt();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (current == END) {
            return -1;
        }
        if (current == null || at == current.length) {
            try {
                current = chunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("the client's input was not waited for");
            }
            at = 0;
            if (current == END) {
                chunks.add(END); // every later read sees the end too
                return -1;
            }
        }
        int n = Math.min(len, current.length - at);
        System.arraycopy(current, at, b, off, n);
        at += n;
        return n;
    }
}
