package dev.runboard.process;

import dev.runboard.session.SessionSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts a session's command with its output going straight into the capture file.
 *
 * <p>{@code Redirect.appendTo} hands the child the file itself: no JVM thread copies bytes, and a
 * background grandchild's output still lands after the direct child exits (a pipe would lose it).
 * The command runs under {@link SessionWrapper}, which records its exit status in the session's
 * folder so that it is known even if runboard dies first.
 */
final class SessionLauncher {
    /**
     * How long a start waits for the wrapper to make its group. Normally well under a millisecond; on
     * a loaded CI perl took longer than the 500 ms this once was, and a STOP sent right after start
     * found no group to reach (PausedStatusTest). The wait ends as soon as the group exists or the
     * process ended, so only a starved machine waits long.
     */
    private static final java.time.Duration GROUP_WAIT = java.time.Duration.ofSeconds(5);
    private static final long GROUP_POLL_NANOS = 100_000;
    /** Why nothing starts without perl: the wrapper is the one owner of a session's processes. */
    static final String NO_PERL = "perl was not found on PATH: runboard runs every command under its session wrapper (a Perl"
            + " script that owns the command's processes, ends them at the deadline and records the exit status)."
            + " Install perl to fix this.";

    private final OsProcesses os;
    private final Path dataDir;
    private final java.util.function.Consumer<String> warn;
    /** Installed at the first need: an exec that adopts a command bin/runboard launched never needs it (below). */
    private volatile Installed installed;

    /** The wrapper (empty: commands run unwrapped) and nice (empty: commands run at normal priority). */
    private record Installed(Optional<SessionWrapper> wrapper, Optional<Path> nice) {
    }

    /** {@code warn} hears, once, of a wrapper or a nice that could not be found or installed. */
    SessionLauncher(OsProcesses os, Path dataDir, java.util.function.Consumer<String> warn) {
        this.os = os;
        this.dataDir = dataDir;
        this.warn = warn;
    }

    /**
     * The wrapper installed in the data dir, at the first launch rather than when the engine is made:
     * reading it from the jar and comparing it with the installed copy was an eighth of the CPU an
     * exec's JVM spent while its command ran, for a command it adopted and never launched
     * (docs/BENCHMARKS.md §10, round 14).
     */
    private Installed installed() {
        Installed known = installed;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (installed == null) {
                installed = install();
            }
            return installed;
        }
    }

    private Installed install() {
        Optional<SessionWrapper> w;
        String problem = null;
        try {
            w = SessionWrapper.install(dataDir);
            if (w.isEmpty()) {
                problem = NO_PERL;
            }
        } catch (IOException e) {
            w = Optional.empty();
            problem = "could not install the session wrapper under " + dataDir + " (" + e.getMessage()
                    + "): commands cannot be started until it can. Check that the data dir is writable and the disk is not full.";
        }
        Optional<Path> nice = SessionWrapper.onPath("nice");
        if (nice.isEmpty()) {
            problem = (problem == null ? "" : problem + " ") + "nice was not found on PATH: commands run at normal"
                    + " priority, so busy ones slow the window down. Install coreutils to fix this.";
        }
        if (problem != null) {
            warn.accept(problem);
        }
        return new Installed(w, nice);
    }

    /**
     * The command's own argv, under {@code nice} when it is to run below normal priority. After the
     * wrapper: only the command is niced, the wrapper that records its end is not.
     */
    List<String> commandArgv(SessionSpec spec) {
        Optional<Path> nice = installed().nice();
        if (spec.nice() == 0 || nice.isEmpty()) {
            return spec.launchArgv();
        }
        List<String> argv = new ArrayList<>(List.of(nice.get().toString(), "-n", Integer.toString(spec.nice())));
        argv.addAll(spec.launchArgv());
        return argv;
    }

    /**
     * The wrapper's words, for this launcher and the PTY one. The wrapper holds the deadline, counted
     * from now, so the timeout is enforced even if every runboard process dies, and owns the command's
     * tree: without it (no perl) nothing is started, since nothing could end what the command starts.
     */
    List<String> requiredWrapperPrefix(SessionSpec spec, Path exitStatusFile) throws IOException {
        Optional<SessionWrapper> w = installed().wrapper();
        if (w.isEmpty()) {
            throw new IOException(NO_PERL);
        }
        long deadline = SessionWrapper.deadline(spec.timeout(), System.currentTimeMillis());
        if (spec.maxOutputBytes() != null) {
            // Before the command starts, so every reader that opens the capture reads it as one the wrapper may cut
            // (OutputFile): the wrapper replaces this with what it has cut once it cuts.
            java.nio.file.Files.writeString(exitStatusFile.resolveSibling(dev.runboard.session.OutputTrim.FILE), "trimming 0 0\n");
        }
        return w.get().prefix(exitStatusFile, deadline, spec.grace().toMillis(), spec.maxOutputBytes());
    }

    /** Whether commands can run: under the wrapper, which owns their tree, records their status and holds their deadline. */
    boolean wrapsCommands() {
        return installed().wrapper().isPresent();
    }

    /** The session wrapper, installed; empty when perl is missing or it could not be installed. */
    Optional<SessionWrapper> wrapper() {
        return installed().wrapper();
    }

    /** {@code baseEnv}: the environment the command starts from (a client's), or null for this process's own. */
    /**
     * @param inheritStdin the command reads this process's stdin (exec) instead of a pipe kept open
     *     for input sent later (the supervisor's sessions)
     */
    Process launch(SessionSpec spec, java.util.Map<String, String> baseEnv, boolean inheritStdin, String tag,
                   Path capture, Path exitStatusFile) throws IOException {
        // The wrapper makes the process groups itself (without a new session) and starts the command with
        // every signal at its default, so it needs neither setsid nor env in front of it.
        List<String> argv = new ArrayList<>(requiredWrapperPrefix(spec, exitStatusFile));
        argv.addAll(commandArgv(spec));
        ProcessBuilder pb = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(capture.toFile()));
        if (inheritStdin) {
            pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
        } // else stdin stays a pipe (the default): kept open so input can be sent later.
        if (baseEnv != null) {
            pb.environment().clear();
            pb.environment().putAll(baseEnv);
        }
        pb.environment().putAll(spec.env());
        int eq = tag.indexOf('=');
        pb.environment().put(tag.substring(0, eq), tag.substring(eq + 1));
        // What Java cannot pass as bytes goes to the wrapper in a file (inherited entries keep their own bytes).
        pb.directory(RawLaunch.separate(pb.environment(), spec.cwd(), capture.getParent()).toFile());
        return pb.start(); // the engine waits for the command's group (SessionLauncher.awaitCommand)
    }

    /**
     * {@code start()} returns once the first program is exec'd, a moment before it makes its group.
     * Waiting for the new group (well under a millisecond on an idle machine) means a kill right
     * after start reaches the whole group and a child forked at once is inside it. Parked, not spun:
     * under load the wait is for the wrapper to be scheduled, and a spinning thread would take a CPU from it.
     */
    static void awaitOwnGroup(Process process) {
        awaitWhile(process, () -> {
            var stat = LinuxProcesses.readStat(process.pid());
            return stat.isPresent() && stat.get().pgid() != process.pid();
        });
    }

    /**
     * Waits until the wrapper has forked the command into its own group and named it in the session's
     * folder ({@link WrappedCommand}), so a pause or a kill sent right after the start reaches the
     * command's group. Parked, as {@link #awaitOwnGroup}.
     */
    static void awaitCommand(Process process, Path commandFile) {
        awaitWhile(process, () -> !java.nio.file.Files.exists(commandFile));
    }

    private static void awaitWhile(Process process, java.util.function.BooleanSupplier waiting) {
        long deadline = System.nanoTime() + GROUP_WAIT.toNanos();
        while (process.isAlive() && System.nanoTime() < deadline && waiting.getAsBoolean()) {
            java.util.concurrent.locks.LockSupport.parkNanos(GROUP_POLL_NANOS);
        }
    }

}
