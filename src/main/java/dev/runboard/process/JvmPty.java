package dev.runboard.process;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import com.pty4j.unix.UnixPtyProcess;
import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The fallback PTY path, for machines without util-linux {@code script}: pty4j opens the terminal in
 * this JVM and one JVM thread per session copies the master into the capture file (the only place
 * runboard reads output from). The child is still a session and group leader (pty4j calls setsid
 * for the controlling terminal) and carries the env tag, so tree kill works as in plain mode.
 * Its limitation: the terminal's master lives and dies with this JVM, so a crash hangs the command
 * up and output after it is lost ({@link ScriptPty} has no such limit).
 */
final class JvmPty {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(JvmPty.class.getName());
    }
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

    private JvmPty() {
    }

    /**
     * Starts {@code command} (the wrapper's words and the command's) in a new terminal.
     *
     * @param env the command's whole environment, tag and terminal variables included
     */
    static Process launch(OsProcesses os, List<String> command, Map<String, String> env, Path cwd, Path capture)
            throws IOException {
        List<String> argv = new ArrayList<>();
        for (String word : os.launchPrefix()) {
            if (!word.equals("setsid")) { // pty4j already makes the child a session leader; setsid would fork
                argv.add(word);
            }
        }
        // pty4j sets the window size after the fork, racing a quick program; setting it in the child
        // before exec makes the size certain. exec keeps the pid, so the leader is still the command.
        argv.addAll(List.of("/bin/sh", "-c", PtyLauncher.STTY + "; exec \"$@\"", "runboard-pty"));
        argv.addAll(command);
        PtyProcess pty;
        try {
            pty = new PtyProcessBuilder(argv.toArray(String[]::new))
                    .setEnvironment(env)
                    .setDirectory(cwd.toString())
                    .setInitialColumns(PtyLauncher.COLUMNS)
                    .setInitialRows(PtyLauncher.ROWS)
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
                            log().log(Level.FINE, "PTY copier ended badly", e);
                        }
                        return (Process) this;
                    }));
        }
    }
}
