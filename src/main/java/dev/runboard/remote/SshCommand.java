package dev.runboard.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs commands on one host through OpenSSH, every call over one multiplexed connection
 * (ControlMaster=auto, ControlPersist): the first call opens the master, later calls reuse it, and
 * a call after the master died opens a new one. ssh reads the user's own config, keys, agent and
 * known_hosts as it always does; {@code -F} names another config file when one is given.
 *
 * <p>The control socket lives in runboard's own 0700 folder, under {@code $XDG_RUNTIME_DIR} when
 * set; its name is a short hash, because a Unix socket path is limited to about 107 bytes.
 */
final class SshCommand {
    /** How long the master outlives its last use. */
    private static final String PERSIST = "10m";
    private static final long CALL_LIMIT_SECONDS = 120;

    private final String host;
    private final Path configFile;
    private final Path controlPath;
    private final Path scratch;

    SshCommand(String host, Path configFile, Path controlDir) {
        this.host = host;
        this.configFile = configFile;
        this.controlPath = controlDir.resolve(shortHash(host + "\0" + configFile));
        this.scratch = controlDir;
    }

    String host() {
        return host;
    }

    /** What one call gave: ssh's exit code (255: ssh itself failed), the remote command's stdout, ssh's stderr. */
    record Result(int exit, byte[] out, String err) {
        boolean sshFailed() {
            return exit == 255;
        }

        String text() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    /** The argv of one call running {@code remoteCommand} (a string the remote user's shell runs). */
    List<String> argv(String remoteCommand) {
        List<String> argv = new ArrayList<>(List.of("ssh"));
        if (configFile != null) {
            argv.addAll(List.of("-F", configFile.toString()));
        }
        // Only what runboard cannot work without is forced here; keep-alives and the connect timeout are
        // defaults in the generated config (SshConfigFile), where the user's own settings win.
        argv.addAll(List.of("-T", "-o", "BatchMode=yes", "-o", "ControlMaster=auto", "-o", "ControlPersist=" + PERSIST,
                "-o", "ControlPath=" + controlPath, "--", host, remoteCommand));
        return argv;
    }

    /** Runs the command with {@code stdin} as its input and waits for it. */
    Result run(String remoteCommand, byte[] stdin) throws IOException {
        return run(remoteCommand, stdin, in -> in.readAllBytes());
    }

    /**
     * The call's result, or an IOException of one line naming the host when ssh itself failed (the connection or the
     * login, not the remote command: its exit code is the caller's to read).
     */
    Result connected(Result r) throws IOException {
        if (r.sshFailed()) {
            throw new IOException(SshProblem.ofSsh(host, r.err()));
        }
        return r;
    }

    /** How a call's stdout is consumed while it runs (a poll streams it into the mirrors). */
    interface OutputReader {
        byte[] read(InputStream in) throws IOException;
    }

    /**
     * Runs the command; {@code reader} consumes its stdout as it comes. ssh's stderr goes to a file,
     * not a pipe: a master forked by this call could hold a pipe open long after the call ended. The
     * file is unlinked as soon as ssh has it open and read through the descriptor kept here, so no
     * file is left behind whatever happens to this JVM (a daemon thread's call at exit, a kill -9).
     */
    Result run(String remoteCommand, byte[] stdin, OutputReader reader) throws IOException {
        Path err = UNLINKED_AT_EXIT.create(scratch);
        try (InputStream errIn = Files.newInputStream(err)) {
            Process p;
            try {
                p = new ProcessBuilder(argv(remoteCommand)).redirectError(err.toFile()).start();
            } finally {
                UNLINKED_AT_EXIT.delete(err);
            }
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin);
                }
            } catch (IOException closedEarly) {
                // ssh failed before reading its input: its exit code and stderr say why
            }
            byte[] out;
            try (InputStream o = p.getInputStream()) {
                out = reader.read(o);
            } catch (IOException | RuntimeException e) {
                p.destroyForcibly();
                throw e;
            }
            boolean ended = p.waitFor(CALL_LIMIT_SECONDS, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
                throw new IOException("ssh to " + host + " did not finish within " + CALL_LIMIT_SECONDS + " s");
            }
            return new Result(p.exitValue(), out, new String(errIn.readAllBytes(), StandardCharsets.UTF_8).strip());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while talking to " + host);
        } finally {
            UNLINKED_AT_EXIT.delete(err);
        }
    }

    private static final ErrorFiles UNLINKED_AT_EXIT = new ErrorFiles();

    /**
     * The stderr files of calls in flight. A JVM that exits while a daemon thread is between making
     * one and unlinking it (a poll at exec's end, a supervisor stopping) unlinks it in its exit hook,
     * so a file is left only by a kill -9, and {@link #sweepOldErrorFiles} takes those.
     */
    private static final class ErrorFiles {
        private final java.util.Set<Path> live = java.util.concurrent.ConcurrentHashMap.newKeySet();

        ErrorFiles() {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> live.forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException ignored) {
                    // the folder is gone: nothing is left in it either
                }
            }), "ssh-error-files"));
        }

        Path create(Path folder) throws IOException {
            Path f = Files.createTempFile(folder, "ssh", ".err");
            live.add(f);
            return f;
        }

        void delete(Path f) throws IOException {
            Files.deleteIfExists(f);
            live.remove(f);
        }
    }

    /**
     * Starts a call that stays open (a session's output stream) over the host's master connection, its stdout
     * {@code file} from byte {@code offset} on: written in place, not appended, so that a stream left over from an
     * owner that died (it carries the same bytes for the same offsets) can never double a byte of a new one's. Its
     * stdin is a pipe this process holds: when this process goes, the call's input ends, and the helper with it.
     * Its stderr is a pipe too (a file would outlive a crash) that may stay open past the call's exit (a call that
     * finds the master gone becomes the master), so it is read only as far as it holds bytes; its exit says
     * whether it ended well. Null when no master runs: a call that made its own connection would hold a second
     * one to the host for as long as it lasts.
     */
    Process startOverMaster(String remoteCommand, Path file, long offset) throws IOException {
        if (!masterRunning()) {
            return null;
        }
        List<String> command = new ArrayList<>(List.of("perl", "-e", PLACED_STDOUT, file.toString(), Long.toString(offset)));
        command.addAll(argv(remoteCommand));
        return new ProcessBuilder(command).start();
    }

    /** Perl that makes stdout the file ARGV[0] from byte ARGV[1] on (neither truncated nor appended), then runs the rest. */
    private static final String PLACED_STDOUT = "open(STDOUT, '+<', $ARGV[0]) && sysseek(STDOUT, $ARGV[1], 0)"
            + " or die \"runboard: cannot write $ARGV[0]: $!\\n\"; splice(@ARGV, 0, 2);"
            + " exec { $ARGV[0] } @ARGV or die \"runboard: cannot run $ARGV[0]: $!\\n\"";

    /** Whether the host's master connection runs ({@code ssh -O check}). */
    boolean masterRunning() throws IOException {
        try {
            Process p = new ProcessBuilder(control("check")).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The argv of a control request to the master ({@code ssh -O WHAT}). */
    private List<String> control(String what) {
        List<String> argv = argv("true");
        argv.remove(argv.size() - 1);
        argv.addAll(argv.indexOf("--"), List.of("-O", what));
        return argv;
    }

    /**
     * Removes {@code ssh*.err} files older than a minute from the control folder: runboard before
     * this one left one behind for every call a JVM's exit cut short.
     */
    static void sweepOldErrorFiles(Path controlDir) {
        long before = System.currentTimeMillis() - 60_000;
        try (java.util.stream.Stream<Path> files = Files.list(controlDir)) {
            files.filter(f -> f.getFileName().toString().matches("ssh[0-9]*\\.err")).forEach(f -> {
                try {
                    if (Files.getLastModifiedTime(f).toMillis() < before) {
                        Files.deleteIfExists(f);
                    }
                } catch (IOException ignored) {
                    // another runboard's, removed meanwhile
                }
            });
        } catch (IOException ignored) {
            // nothing to tidy
        }
    }

    /** Ends the master connection (tests use this to drop it mid-run; a refused start, so none lingers). */
    void exitMaster() throws IOException {
        try {
            new ProcessBuilder(control("exit")).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String shortHash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Quotes a word for the remote POSIX shell. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
