package dev.runboard.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.BooleanSupplier;

/**
 * A remote command's stdin: what is written is sent on {@link #flush()} (the supervisor's stdin
 * request writes then flushes; one ssh call over the host's multiplexed connection each, not one per
 * byte), into the fifo the command reads on the host. {@link #close()} ends the input there; once
 * the command has ended it costs nothing (the engine closes every session's stdin at its end).
 */
final class RemoteStdin extends OutputStream {
    /** Delivers bytes to the command on its host, or ends its input ({@code data} null). */
    interface Sender {
        void send(byte[] data) throws IOException;
    }

    private final Sender sender;
    private final BooleanSupplier ended;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private boolean closed;

    RemoteStdin(Sender sender, BooleanSupplier ended) {
        this.sender = sender;
        this.ended = ended;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("the input of this remote command is closed");
        }
        pending.write(b, off, len);
    }

    @Override
    public synchronized void flush() throws IOException {
        if (pending.size() > 0) {
            byte[] data = pending.toByteArray();
            pending.reset();
            sender.send(data);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (ended.getAsBoolean()) {
            return;
        }
        flush();
        sender.send(null);
    }
}
