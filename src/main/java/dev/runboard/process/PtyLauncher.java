package dev.runboard.process;

import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
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
    private static final Duration GROUP_WAIT = Duration.ofMillis(500);
    /** The terminal's end-of-file character (VEOF, Ctrl+D): how "close stdin" reaches a program reading a PTY. */
    private static final int EOF_CHAR = 4;

    private final OsProcesses os;

    PtyLauncher(OsProcesses os) {
        this.os = os;
    }

    Process launch(SessionSpec spec, String tag, Path capture) throws IOException {
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
        argv.addAll(spec.launchArgv());
        Map<String, String> env = new HashMap<>(System.getenv());
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
        Thread copier = new Thread(() -> copy(pty.getInputStream(), out, drained), "runboard-pty-" + pty.pid());
        copier.setDaemon(true);
        copier.start();
        awaitOwnGroup(pty);
        return new PtyChild(pty, drained);
    }

    private static void copy(InputStream master, FileOutputStream capture, CompletableFuture<Void> drained) {
        byte[] buf = new byte[64 * 1024];
        try (capture) {
            int n;
            while ((n = master.read(buf)) >= 0) {
                capture.write(buf, 0, n);
            }
        } catch (IOException e) {
            // EIO once every holder of the terminal has closed it: the normal end of a PTY
        } finally {
            drained.complete(null);
        }
    }

    private static void awaitOwnGroup(Process process) {
        long deadline = System.nanoTime() + GROUP_WAIT.toNanos();
        while (process.isAlive() && System.nanoTime() < deadline) {
            var stat = LinuxProcesses.readStat(process.pid());
            if (stat.isEmpty() || stat.get().pgid() == process.pid()) {
                return;
            }
            Thread.onSpinWait();
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
