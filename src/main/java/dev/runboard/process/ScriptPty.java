package dev.runboard.process;

import dev.runboard.session.ShellQuoting;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * PTY sessions whose terminal is held outside the JVM, by util-linux {@code script}:
 *
 * <pre>
 *   JVM ── setsid [env --default-signal] script -q -e -c CMD /dev/null     (stdout: the capture, for append)
 *            └── sh -c CMD ─exec─ perl runboard-wrap.pl … ── the command   (a new session, the pty its terminal)
 * </pre>
 *
 * script opens the terminal, runs {@code $SHELL -c CMD} in it (SHELL=/bin/sh here; CMD sets the
 * window size, restores the command's own SHELL and execs the wrapper) and copies the master to its
 * stdout, which is the capture file itself, as for plain sessions. The JVM holds only script's stdin
 * (a pipe; script writes what comes in to the terminal, and passes its end-of-file on as the
 * terminal's). So when the JVM dies the command is not hung up, its output still lands in the file,
 * and its stdin reaches end-of-file. {@code -q} keeps script's banners out of the capture, {@code -e}
 * makes its exit code the wrapper's, and the typescript goes to /dev/null.
 *
 * <p>The session's pid is script's child: the wrapper, leader of the command's session and process
 * group (what the tree kill signals). script stays in a session of its own (no terminal's Ctrl+C or
 * hang-up reaches it) and carries no session tag, so the sampler does not count it and the kill never
 * signals it: a TERM to script would make it kill the command and exit at once, cutting off the
 * command's last words. It needs no signal: it exits by itself, after copying the last output, as soon
 * as the wrapper has ended. The engine sees the session end when script exits (its {@code onExit}).
 */
final class ScriptPty {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(ScriptPty.class.getName());
    }
    /** How long script may take to fork the command's leader (well under a millisecond when idle). */
    private static final Duration LEADER_WAIT = Duration.ofSeconds(10);
    private static final long POLL_NANOS = 100_000;

    private ScriptPty() {
    }

    /**
     * util-linux script on PATH, on Linux only: BSD's and busybox's script take other options.
     * Runs {@code script --version} once to tell them apart.
     */
    static Optional<Path> find() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return Optional.empty();
        }
        Optional<Path> script = SessionWrapper.onPath("script");
        if (script.isEmpty()) {
            return Optional.empty();
        }
        try {
            Process p = new ProcessBuilder(script.get().toString(), "--version").redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() == 0 && out.contains("util-linux")) {
                return script;
            }
            log().info(() -> script.get() + " is not util-linux script: " + out.strip());
        } catch (IOException e) {
            log().log(Level.INFO, "cannot run " + script.get(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    /**
     * Starts {@code command} (the wrapper's words and the command's) in a terminal held by script.
     *
     * @param env the command's whole environment, terminal variables and the tag {@code tagName} included
     */
    static Process launch(OsProcesses os, Path script, List<String> command, Map<String, String> env, String tagName,
                          Path cwd, Path capture) throws IOException {
        List<String> argv = new ArrayList<>(os.launchPrefix());
        argv.addAll(List.of(script.toString(), "-q", "-e", "-c", shellCommand(command, env, tagName), "/dev/null"));
        ProcessBuilder pb = new ProcessBuilder(argv)
                .directory(cwd.toFile())
                .redirectErrorStream(true) // script's own complaints go to the capture too
                .redirectOutput(ProcessBuilder.Redirect.appendTo(capture.toFile()));
        Map<String, String> scriptEnv = pb.environment();
        scriptEnv.clear();
        scriptEnv.putAll(env);
        String tag = scriptEnv.remove(tagName);
        scriptEnv.put("SHELL", "/bin/sh"); // the shell script runs CMD with; CMD restores the command's own
        scriptEnv.put(PtyLauncher.HOLDER_VAR, tag);
        Process holder;
        try {
            holder = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot start " + script + " to hold the session's terminal: " + e.getMessage(), e);
        }
        return new ScriptChild(holder, awaitLeader(holder));
    }

    /**
     * The string script hands to {@code sh -c}: the window size, the tag (not script's own), the
     * command's own SHELL, then exec of the wrapper, so the pid script forked is the wrapper's.
     */
    static String shellCommand(List<String> command, Map<String, String> env, String tagName) {
        StringBuilder cmd = new StringBuilder(PtyLauncher.STTY).append("; ");
        cmd.append("export ").append(tagName).append('=').append(ShellQuoting.quote(env.get(tagName))).append("; ");
        cmd.append("unset ").append(PtyLauncher.HOLDER_VAR).append("; ");
        String shell = env.get("SHELL");
        cmd.append(shell == null ? "unset SHELL" : "export SHELL=" + ShellQuoting.quote(shell)).append("; ");
        return cmd.append("exec ").append(ShellQuoting.join(command)).toString();
    }

    /**
     * Waits for script's child to lead its own session (script calls setsid before it execs the
     * shell): that pid is the session's. If script ends first (it could not open a terminal, or the
     * command came and went before it was seen), script's own pid stands in: it has ended, and its
     * exit code and message tell what happened.
     */
    private static long awaitLeader(Process script) throws IOException {
        long deadline = System.nanoTime() + LEADER_WAIT.toNanos();
        while (true) {
            OptionalLong leader = sessionLeaderUnder(script.pid());
            if (leader.isPresent()) {
                return leader.getAsLong();
            }
            if (!script.isAlive()) {
                return script.pid();
            }
            if (System.nanoTime() > deadline) {
                script.destroyForcibly();
                throw new IOException("script did not start the command within " + LEADER_WAIT.toSeconds() + " s");
            }
            LockSupport.parkNanos(POLL_NANOS); // parked, not spun: script needs the CPU to get there
        }
    }

    /** A child of {@code pid} that leads its own session and group, from /proc. */
    private static OptionalLong sessionLeaderUnder(long pid) {
        for (long child : children(pid)) {
            Optional<ProcInfo> stat = LinuxProcesses.readStat(child);
            if (stat.isPresent() && stat.get().pgid() == child && stat.get().sid() == child) {
                return OptionalLong.of(child);
            }
        }
        return OptionalLong.empty();
    }

    private static List<Long> children(long pid) {
        Path file = Path.of("/proc", Long.toString(pid), "task", Long.toString(pid), "children");
        try {
            List<Long> out = new ArrayList<>();
            for (String word : Files.readString(file, StandardCharsets.US_ASCII).trim().split(" +")) {
                if (!word.isEmpty()) {
                    out.add(Long.parseLong(word));
                }
            }
            return out;
        } catch (NoSuchFileException e) {
            // gone, or a kernel without CONFIG_PROC_CHILDREN: ask the JDK (a pass over /proc)
            return ProcessHandle.of(pid).map(h -> h.children().map(ProcessHandle::pid).toList()).orElse(List.of());
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /**
     * script's process as the engine sees the session: exit, exit code and stdin are script's (it
     * exits once the wrapper has ended and the terminal is drained, with the wrapper's exit code),
     * the pid is the leader's.
     */
    private static final class ScriptChild extends Process {
        private final Process script;
        private final long leader;

        ScriptChild(Process script, long leader) {
            this.script = script;
            this.leader = leader;
        }

        @Override
        public OutputStream getOutputStream() {
            return script.getOutputStream();
        }

        @Override
        public InputStream getInputStream() {
            return script.getInputStream(); // empty: output goes to the capture file
        }

        @Override
        public InputStream getErrorStream() {
            return script.getErrorStream();
        }

        @Override
        public int waitFor() throws InterruptedException {
            return script.waitFor();
        }

        @Override
        public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
            return script.waitFor(timeout, unit);
        }

        @Override
        public int exitValue() {
            return script.exitValue();
        }

        @Override
        public void destroy() {
            script.destroy();
        }

        @Override
        public Process destroyForcibly() {
            script.destroyForcibly();
            return this;
        }

        @Override
        public long pid() {
            return leader;
        }

        @Override
        public boolean isAlive() {
            return script.isAlive();
        }

        @Override
        public CompletableFuture<Process> onExit() {
            return script.onExit().thenApply(p -> this);
        }
    }
}
