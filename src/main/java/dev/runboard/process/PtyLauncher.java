package dev.runboard.process;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import com.pty4j.unix.UnixPtyProcess;
import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.runboard.session.SessionSpec;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts a session's command in a pseudo-terminal (pty4j), so programs see a terminal: they
 * colour their output and flush line by line. A PTY cannot be redirected to a file, so one JVM
 * thread per session copies the PTY master into the capture file (the only place runboard reads
 * output from). The child is still a session and group leader (pty4j calls setsid for the
 * controlling terminal) and carries the env tag, so tree kill works as in plain mode.
 */
final class PtyLauncher {
    private static final Logger LOG = Logger.getLogger(PtyLauncher.class.getName());
    static final int COLUMNS = 120;
    static final int ROWS = 40;
    /** After the leader exits, how long to wait for the copier to drain what is left in the PTY. */
    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(2);
    /** The terminal's end-of-file character (VEOF, Ctrl+D): how "close stdin" reaches a program reading a PTY. */
    private static final int EOF_CHAR = 4;

    static {
        // pty4j logs through SLF4J; with no binding, SLF4J prints a three-line warning on every CLI run.
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
    }

    private final OsProcesses os;
    private final SessionLauncher plain;

    /** @param plain the plain launcher, for its exit-status wrapper (so PTY sessions survive a runboard crash too) */
    PtyLauncher(OsProcesses os, SessionLauncher plain) {
        this.os = os;
        this.plain = plain;
    }

    Process launch(SessionSpec spec, Map<String, String> baseEnv, String tag, Path capture, Path exitStatusFile)
            throws IOException {
        List<String> argv = new ArrayList<>();
        for (String word : os.launchPrefix()) {
            if (!word.equals("setsid")) { // pty4j already makes the child a session leader; setsid would fork
                argv.add(word);
            }
        }
        // pty4j sets the window size after the fork, racing a quick program; setting it in the child
        // before exec makes the size certain. exec keeps the pid, so the leader is still the command.
        argv.addAll(List.of("/bin/sh", "-c", "stty cols " + COLUMNS + " rows " + ROWS + " 2>/dev/null; exec \"$@\"",
                "runboard-pty"));
        argv.addAll(plain.wrapperPrefix(spec, exitStatusFile));
        argv.addAll(plain.commandArgv(spec));
        Map<String, String> env = new HashMap<>(baseEnv != null ? baseEnv : System.getenv());
        env.put("TERM", "xterm-256color");
        env.put("COLUMNS", Integer.toString(COLUMNS));
        env.put("LINES", Integer.toString(ROWS));
        env.putAll(spec.env());
        int eq = tag.indexOf('=');
        env.put(tag.substring(0, eq), tag.substring(eq + 1));
        PtyProcess pty;
        try {
            pty = new PtyProcessBuilder(argv.toArray(String[]::new))
                    .setEnvironment(env)
                    .setDirectory(spec.cwd().toString())
                    .setInitialColumns(COLUMNS)
                    .setInitialRows(ROWS)
                    .setRedirectErrorStream(true)
                    .setConsole(false)
                    .start();
        } catch (RuntimeException | LinkageError e) {
            // pty4j's native part is missing for this OS or CPU: the session fails with the reason.
            throw new IOException("PTY mode is not available here (" + e + "); run the command without --pty", e);
        }
        FileOutputStream out = new FileOutputStream(capture.toFile(), true);
        CompletableFuture<Void> drained = new CompletableFuture<>();
        Thread copier = new Thread(() -> copy(pty, out, drained), "runboard-pty-" + pty.pid());
        copier.setDaemon(true);
        copier.start();
        SessionLauncher.awaitOwnGroup(pty);
        return new PtyChild(pty, drained);
    }

    /**
     * Copies the terminal into the capture until every holder of the terminal has closed it.
     * pty4j's own stream runs select/poll through JNA around each small read (~20 MB/s here); a
     * plain blocking read(2) on the master fd into one native buffer is several times faster.
     * This thread holds {@code pty}, so the fd cannot be finalized and reused while it reads.
     */
    private static void copy(PtyProcess pty, FileOutputStream capture, CompletableFuture<Void> drained) {
        byte[] buf = new byte[64 * 1024];
        try (capture) {
            if (pty instanceof UnixPtyProcess unix && FdRead.AVAILABLE) {
                int fd = unix.getPty().getMasterFD();
                try (Memory native64k = new Memory(buf.length)) {
                    int n;
                    while ((n = FdRead.readRetrying(fd, native64k, buf.length)) > 0) {
                        native64k.read(0, buf, 0, n);
                        capture.write(buf, 0, n);
                    }
                }
            } else {
                InputStream master = pty.getInputStream();
                int n;
                while ((n = master.read(buf)) >= 0) {
                    capture.write(buf, 0, n);
                }
            }
        } catch (IOException e) {
            // EIO once every holder of the terminal has closed it: the normal end of a PTY
        } finally {
            drained.complete(null);
        }
    }

    /** read(2) from libc, retried on EINTR; -1 at EIO (terminal closed) or any other error. */
    private static final class FdRead {
        private static final int EINTR = 4;
        static final boolean AVAILABLE;

        static {
            boolean ok;
            try {
                Native.register(FdRead.class, "c");
                ok = true;
            } catch (LinkageError e) {
                ok = false;
            }
            AVAILABLE = ok;
        }

        private static native int read(int fd, Pointer buf, int count) throws LastErrorException;

        static int readRetrying(int fd, Memory buf, long count) {
            while (true) {
                try {
                    return read(fd, (Pointer) buf, (int) count);
                } catch (LastErrorException e) {
                    if (e.getErrorCode() != EINTR) {
                        return -1;
                    }
                }
            }
        }
    }

    /**
     * The PTY child as the engine sees a process: its exit completes once the copier has drained
     * the terminal (bounded: a background grandchild may hold the terminal open), and its stdin
     * writes to the terminal, where closing sends EOF (Ctrl+D) rather than hanging the terminal up.
     */
    private static final class PtyChild extends Process {
        private final PtyProcess pty;
        private final CompletableFuture<Void> drained;
        private final OutputStream stdin;

        PtyChild(PtyProcess pty, CompletableFuture<Void> drained) {
            this.pty = pty;
            this.drained = drained;
            this.stdin = new OutputStream() {
                private boolean closed;

                @Override
                public void write(int b) throws IOException {
                    check();
                    pty.getOutputStream().write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    check();
                    pty.getOutputStream().write(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    pty.getOutputStream().flush();
                }

                @Override
                public synchronized void close() throws IOException {
                    if (!closed && pty.isAlive()) {
                        pty.getOutputStream().write(EOF_CHAR);
                        pty.getOutputStream().flush();
                    }
                    closed = true;
                }

                private void check() throws IOException {
                    if (closed) {
                        throw new IOException("stdin was closed");
                    }
                }
            };
        }

        @Override
        public OutputStream getOutputStream() {
            return stdin;
        }

        @Override
        public InputStream getInputStream() {
            return InputStream.nullInputStream(); // output goes to the capture file
        }

        @Override
        public InputStream getErrorStream() {
            return InputStream.nullInputStream();
        }

        @Override
        public int waitFor() throws InterruptedException {
            return pty.waitFor();
        }

        @Override
        public int exitValue() {
            return pty.exitValue();
        }

        @Override
        public void destroy() {
            pty.destroy();
        }

        @Override
        public long pid() {
            return pty.pid();
        }

        @Override
        public boolean isAlive() {
            return pty.isAlive();
        }

        @Override
        public CompletableFuture<Process> onExit() {
            return pty.onExit().thenCompose(p -> drained
                    .completeOnTimeout(null, DRAIN_LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                    .handle((v, e) -> {
                        if (e != null) {
                            LOG.log(Level.FINE, "PTY copier ended badly", e);
                        }
                        return (Process) this;
                    }));
        }
    }
}
