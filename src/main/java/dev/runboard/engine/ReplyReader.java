package dev.runboard.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Reads a supervisor's reply lines on one connection, skipping its heartbeats ({@link Heartbeats}).
 * A connection silent for longer than the limit is a supervisor that stopped answering (stopped by
 * a signal or a debugger, hung): the connection is closed and the read fails with one line saying
 * so and what to do, where it used to hang for ever.
 */
final class ReplyReader {
    /** The supervisor's heartbeat, a whole line. */
    static final String HEARTBEAT = "{\"v\":" + Protocol.VERSION + ",\"heartbeat\":true}";
    /** How long a supervisor may stay silent: ten heartbeats (a loaded machine, a long collection pause). */
    static final Duration DEFAULT_SILENCE = Duration.ofSeconds(10);

    private static final ScheduledExecutorService WATCH = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "runboard-silence");
        t.setDaemon(true);
        return t;
    });

    private final SocketChannel ch;
    private final SupervisorPaths paths;
    private final Duration silence;
    private final BufferedReader in;
    private volatile long lastByte = System.nanoTime();
    private volatile boolean silent;

    ReplyReader(SocketChannel ch, SupervisorPaths paths) {
        this(ch, paths, silenceLimit());
    }

    ReplyReader(SocketChannel ch, SupervisorPaths paths, Duration silence) {
        this.ch = ch;
        this.paths = paths;
        this.silence = silence;
        InputStream raw = Channels.newInputStream(ch);
        this.in = new BufferedReader(new InputStreamReader(new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = raw.read(b, off, len);
                lastByte = System.nanoTime();
                return n;
            }
        }, StandardCharsets.UTF_8));
    }

    /** The next reply line (heartbeats skipped), or null when the supervisor closed the connection. */
    String next() throws IOException {
        long period = Math.max(50, silence.toMillis() / 4);
        ScheduledFuture<?> watch = WATCH.scheduleAtFixedRate(() -> {
            if (System.nanoTime() - lastByte > silence.toNanos()) {
                silent = true;
                try {
                    ch.close(); // the blocked read below ends with an AsynchronousCloseException
                } catch (IOException ignored) {
                    // closed is all that is wanted
                }
            }
        }, period, period, TimeUnit.MILLISECONDS);
        try {
            for (String line; ; ) {
                line = in.readLine();
                if (line == null || !line.equals(HEARTBEAT)) {
                    return line;
                }
            }
        } catch (IOException e) {
            if (silent) {
                throw new IOException(silentMessage(paths, silence), e);
            }
            throw e;
        } finally {
            watch.cancel(false);
        }
    }

    /**
     * One line for a supervisor that stopped answering: its pid (from {@link SupervisorPaths#address()}),
     * whether /proc shows it stopped, and what to do.
     */
    static String silentMessage(SupervisorPaths paths, Duration silence) {
        long pid = supervisorPid(paths);
        String pidText = pid > 0 ? Long.toString(pid) : "<its pid>";
        String said = "the supervisor" + (pid > 0 ? " (pid " + pid + ")" : "") + " has not answered for " + silence.toSeconds() + " s";
        String end = "'kill " + pidText + "' ends it and the next runboard command starts another (sessions keep running)";
        if (pid > 0 && stopped(pid)) {
            return said + ": it is stopped (a STOP signal or a debugger); 'kill -CONT " + pid + "' resumes it, or " + end;
        }
        return said + " (busy or hung; its log: " + paths.log() + "); " + end;
    }

    /** The supervisor's pid as it wrote it below its socket's path, or 0. */
    static long supervisorPid(SupervisorPaths paths) {
        try {
            String[] lines = Files.readString(paths.address()).split("\n");
            return lines.length > 1 ? Long.parseLong(lines[1].strip()) : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private static boolean stopped(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state == 'T' || state == 't';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** {@code RUNBOARD_SUPERVISOR_SILENCE} (a duration such as {@code 3s}) overrides the default; tests shorten it. */
    static Duration silenceLimit() {
        String v = System.getenv("RUNBOARD_SUPERVISOR_SILENCE");
        if (v != null && !v.isBlank()) {
            try {
                return dev.runboard.session.Durations.parse(v.strip());
            } catch (RuntimeException ignored) {
                // the default, as for RUNBOARD_SUPERVISOR_IDLE
            }
        }
        return DEFAULT_SILENCE;
    }
}
