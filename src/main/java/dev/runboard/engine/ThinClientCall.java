package dev.runboard.engine;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one request of bin/runboard's thin client (bin/runboard-client.pl): run a command line here,
 * with the CLI's own code, for the client (its environment, folder and terminal), and stream what
 * it prints back as it prints it. Every byte travels as hex, both ways: arguments, environment and
 * folder are the user's bytes, UTF-8 or not, and the Perl client decodes hex with a builtin.
 *
 * <pre>
 * request  {"v":4,"op":"cli","argv":[HEX...],"env":[HEX of K=V...],"cwd":HEX,"terminal":BOOL}
 * replies  {"v":4,"out":HEX} | {"v":4,"err":HEX} ... then {"v":4,"ok":true,"exit":N}
 * input    {"v":4,"want_in":true} asks for the client's stdin, which then comes as {"v":4,"in":HEX} ...
 *          {"v":4,"in_end":true}; {"v":4,"signal":"INT"} says the client was interrupted ({@link RelayedInput})
 * </pre>
 *
 * The call is the connection's last: once the input is asked for, the client's later lines are its input.
 *
 * Heartbeats go between the frames while the command prints nothing (a {@code wait}); a client that
 * leaves (Ctrl-C on {@code tail -f}) is noticed at the next frame or beat, and the command's thread is
 * interrupted, which ends its waits.
 */
final class ThinClientCall {
    static final String OP = "cli";
    private static final HexFormat HEX = HexFormat.of();

    private final ClientCommands commands;
    private final Heartbeats heartbeats;

    ThinClientCall(ClientCommands commands, Heartbeats heartbeats) {
        this.commands = commands;
        this.heartbeats = heartbeats;
    }

    /**
     * Runs the request's command line and streams its output and exit code on {@code socket}; a request
     * of another shape is refused in one reply, as any other request is, and nothing runs.
     */
    void serve(CliRequest request, java.io.BufferedReader connection, OutputStream socket) throws IOException {
        if (!request.wellFormed()) {
            Protocol.send(socket, new Protocol.Refusal("a cli request needs argv (a non-empty array of hex strings), env (an"
                    + " array of hex strings), cwd (a hex string) and terminal (true or false)", true));
            return;
        }
        List<String> argv = request.words();
        Map<String, String> environment = request.environment();
        String folder = request.folder();
        ReentrantLock writing = new ReentrantLock();
        Thread worker = Thread.currentThread();
        Frames out = new Frames(socket, writing, "out", worker);
        Frames err = new Frames(socket, writing, "err", worker);
        RelayedInput input = new RelayedInput(connection, socket, writing, worker);
        int exit;
        try (Heartbeats.Beating beats = heartbeats.beat(socket, writing, worker)) {
            try {
                exit = commands.run(argv, environment, folder, request.terminal(), input::open, out, err);
            } catch (RuntimeException e) {
                // The CLI's handler says every expected failure in one line; this is a bug, said as one too.
                err.write(("runboard: " + e + " (a bug: the supervisor's log has no more; please report it)\n")
                        .getBytes(StandardCharsets.UTF_8));
                exit = 1;
            }
            out.flush();
            err.flush();
        } finally {
            input.finish();
            Thread.interrupted(); // an interrupt for a client that left is this call's, not the connection's
        }
        writing.lock();
        try {
            socket.write(Protocol.line(new CliRequest.Reply(exit)));
            socket.flush();
        } finally {
            writing.unlock();
        }
    }

    /**
     * One of the command's streams: what it writes is sent as a frame at each flush (the CLI's writers
     * flush at each line), under the connection's lock so that a heartbeat never splits one. A write to
     * a client that has gone interrupts the command's thread: its next wait ends.
     */
    private static final class Frames extends OutputStream {
        private static final int LIMIT = 256 << 10;
        private final OutputStream socket;
        private final ReentrantLock writing;
        private final byte[] prefix;
        private final Thread worker;
        private final java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();

        Frames(OutputStream socket, ReentrantLock writing, String name, Thread worker) {
            this.socket = socket;
            this.writing = writing;
            this.prefix = ("{\"v\":" + Protocol.VERSION + ",\"" + name + "\":\"").getBytes(StandardCharsets.US_ASCII);
            this.worker = worker;
        }

        @Override
        public void write(int b) throws IOException {
            pending.write(b);
            if (pending.size() >= LIMIT) {
                flush();
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            pending.write(b, off, len);
            if (pending.size() >= LIMIT) {
                flush();
            }
        }

        @Override
        public void flush() throws IOException {
            if (pending.size() == 0) {
                return;
            }
            byte[] hex = HEX.formatHex(pending.toByteArray()).getBytes(StandardCharsets.US_ASCII);
            pending.reset();
            writing.lock();
            try {
                socket.write(prefix);
                socket.write(hex);
                socket.write(END);
                socket.flush();
            } catch (IOException gone) {
                worker.interrupt();
                throw gone;
            } finally {
                writing.unlock();
            }
        }

        private static final byte[] END = "\"}\n".getBytes(StandardCharsets.US_ASCII);
    }
}
