package dev.runboard.engine;

import java.io.File;
import java.io.IOException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Reaching a data dir's supervisor: connect to its socket, or start one (a detached JVM) and wait
 * for it to answer. Free of Jackson and picocli, so that the quick {@code start} client stays small.
 */
final class SupervisorSocket {
    /** How long a new supervisor may take to answer: a JVM start, plus history loading, on a busy machine. */
    private static final Duration START_LIMIT = Duration.ofSeconds(30);

    private SupervisorSocket() {
    }

    /**
     * A connection to the running supervisor; throws when none listens, and when the socket is served
     * by another user ({@link PeerCheck.Impostor}): nothing is sent to it.
     */
    static SocketChannel connect(SupervisorPaths paths) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(paths.socket()));
            if (!PeerCheck.sameUser(ch)) {
                throw new PeerCheck.Impostor("refusing the supervisor socket " + paths.socket() + ": it is served by user "
                        + PeerCheck.peerName(ch) + ", not by you (" + System.getProperty("user.name") + "); its folder is another user's"
                        + " (XDG_RUNTIME_DIR, which sudo -E keeps): unset XDG_RUNTIME_DIR or point it at a folder of your own");
            }
            return ch;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    /** Whether a failed connect means "nobody listens" (rather than a real I/O problem). */
    static boolean nobodyListens(IOException e) {
        return e instanceof NoSuchFileException || e instanceof SocketException;
    }

    /** How often a read-only request is sent when supervisors keep dying under it (one dying is enough to retry). */
    private static final int READ_ATTEMPTS = 3;
    /** A short wait before asking again: a supervisor killed a moment ago may still hold its socket. */
    private static final long RETRY_PAUSE_NANOS = Duration.ofMillis(100).toNanos();

    /** One request sent and its answer read, over a connection to the supervisor. */
    interface Exchange<T> {
        T over(SocketChannel ch) throws IOException;
    }

    /**
     * A request that only reads or waits, over {@code open} when given, else a connection to the
     * supervisor (started if none answers): when the supervisor that took it died before answering
     * (killed, crashed, or its idle exit crossing the request), it is asked again of the next one,
     * which adopts the same sessions. A supervisor that cannot start is said at once, and so is a
     * refusal (an answer, not a lost connection). Requests that act (start, kill) never come here:
     * they are not sent twice.
     */
    static <T> T exchangeReading(SupervisorPaths paths, SocketChannel open, Exchange<T> exchange) throws IOException {
        for (int attempt = 1; ; attempt++) {
            SocketChannel ch = open != null ? open : connectOrStart(paths);
            open = null;
            try (ch) {
                return exchange.over(ch);
            } catch (SupervisorClient.RequestException refused) {
                throw refused;
            } catch (IOException lost) {
                if (attempt == READ_ATTEMPTS || Thread.currentThread().isInterrupted()) { // interrupted: the caller's wait is over
                    throw lost;
                }
                LockSupport.parkNanos(RETRY_PAUSE_NANOS);
            }
        }
    }

    /** A connection to the supervisor, starting one first when none answers. */
    static SocketChannel connectOrStart(SupervisorPaths paths) throws IOException {
        try {
            return connect(paths);
        } catch (IOException e) {
            if (!nobodyListens(e)) {
                throw e;
            }
        }
        paths.prepare();
        ProcessBuilder pb = new ProcessBuilder(SupervisorLauncher.command(paths.dataDir()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(paths.log().toFile()))
                .redirectErrorStream(true);
        // jpackage's launcher marks the processes it starts; a launcher that finds the mark acts as a
        // plain java launcher and takes "supervisor" for a class name.
        pb.environment().remove("_JPACKAGE_LAUNCHER");
        Process supervisor = pb.start();
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        IOException last = null;
        while (System.nanoTime() < deadline) {
            try {
                return connect(paths);
            } catch (IOException e) {
                last = e;
            }
            // A supervisor that lost the race for the lock exits 0 at once: another one is coming up.
            if (!supervisor.isAlive() && supervisor.exitValue() != 0) {
                throw new IOException("the supervisor exited with " + supervisor.exitValue() + " at start; see "
                        + paths.log() + lastLine(paths));
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
        throw new IOException("no supervisor answered on " + paths.socket() + " within " + START_LIMIT.toSeconds()
                + " s (" + (last == null ? "" : last.getMessage()) + "); see " + paths.log());
    }

    private static String lastLine(SupervisorPaths paths) {
        try {
            List<String> lines = Files.readAllLines(paths.log());
            return lines.isEmpty() ? "" : ": " + lines.get(lines.size() - 1);
        } catch (IOException e) {
            return "";
        }
    }
}
