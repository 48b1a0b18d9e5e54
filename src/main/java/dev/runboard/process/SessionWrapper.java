package dev.runboard.process;

import dev.runboard.session.ProcessTreeSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The small Perl program that runs each command as its child, ends it at its deadline, and writes
 * how it ended into the session's folder, so the timeout is enforced and the exit status known even
 * when no runboard process was running at that moment.
 * Installed into {@code <data>/bin/}; when Perl is missing, commands run unwrapped and the
 * limitation is reported.
 */
public final class SessionWrapper {
    private static final String RESOURCE = "/dev/runboard/process/" + ProcessTreeSnapshot.WRAPPER_SCRIPT;
    private final Path script;
    private final Path perl;

    private SessionWrapper(Path script, Path perl) {
        this.script = script;
        this.perl = perl;
    }

    /** Installs the wrapper under the data dir, or returns empty when no Perl is on PATH. */
    public static Optional<SessionWrapper> install(Path dataDir) throws IOException {
        Optional<Path> perl = onPath("perl");
        if (perl.isEmpty()) {
            return Optional.empty();
        }
        byte[] content;
        try (InputStream in = SessionWrapper.class.getResourceAsStream(RESOURCE)) {
            content = in.readAllBytes();
        }
        Path script = dev.runboard.store.DataDirs.createPrivateDirectories(dataDir.resolve("bin")).resolve(ProcessTreeSnapshot.WRAPPER_SCRIPT);
        if (!Files.exists(script) || !Arrays.equals(Files.readAllBytes(script), content)) {
            dev.runboard.store.AtomicFiles.SYSTEM.write(script, content);
        }
        return Optional.of(new SessionWrapper(script, perl.get()));
    }

    /**
     * The words to put before the command.
     *
     * @param deadlineEpochMillis when the wrapper ends the command's tree, in epoch milliseconds; 0 for no deadline
     * @param graceMillis how long the command has between TERM and KILL at the deadline
     */
    public List<String> prefix(Path exitStatusFile, long deadlineEpochMillis, long graceMillis) {
        return prefix(exitStatusFile, deadlineEpochMillis, graceMillis, null);
    }

    /**
     * As {@link #prefix(Path, long, long)}, keeping the capture beside {@code exitStatusFile} to the newest
     * {@code maxOutputBytes} while the command runs (null: all of it; the wrapper's "Bounded output").
     */
    public List<String> prefix(Path exitStatusFile, long deadlineEpochMillis, long graceMillis, Long maxOutputBytes) {
        if (deadlineEpochMillis < 0 || graceMillis < 0) {
            throw new IllegalArgumentException("deadline and grace cannot be negative");
        }
        List<String> words = new java.util.ArrayList<>(List.of(perl.toString(), script.toString()));
        if (maxOutputBytes != null) {
            words.addAll(List.of("--max-output", Long.toString(maxOutputBytes)));
        }
        words.addAll(List.of(exitStatusFile.toString(), Long.toString(deadlineEpochMillis), Long.toString(graceMillis)));
        return words;
    }

    /**
     * How often a job's wrapper writes its tree's usage into the session's folder ({@link #USAGE_FILE}): its node's
     * /proc is not this host's, so the monitor reads what the wrapper saw, at the period it samples local trees.
     */
    public static final java.time.Duration JOB_USAGE_PERIOD = java.time.Duration.ofSeconds(1);
    /** The wrapper's usage file in the session's folder (the frame format {@link TreeUsageFrames} reads). */
    public static final String USAGE_FILE = "usage";
    /** A signal that does not end the session (pause, resume), asked of a wrapper runboard cannot signal itself. */
    public static final String SIGNAL_REQUEST = "signal-request";
    /** The wrapper's answer to a signal request: its line, then "sent" or "gone". */
    public static final String SIGNAL_SERVED = "signal-served";

    /**
     * The words that run a command as a batch job's wrapper (a Slurm job): its deadline counted from
     * the wrapper's own start ({@code +MS}, runboard-wrap.pl), that is from the job's, not from the
     * submission; the job may wait in the scheduler's queue for hours first. It writes its tree's usage every
     * {@link #JOB_USAGE_PERIOD}.
     */
    public List<String> jobPrefix(Path exitStatusFile, java.time.Duration timeout, long graceMillis) {
        return jobPrefix(perl.toString(), script.toString(), exitStatusFile.toString(), timeout, graceMillis);
    }

    /** As {@link #jobPrefix(Path, java.time.Duration, long)} for a wrapper installed elsewhere (a Slurm login host's). */
    public static List<String> jobPrefix(String perl, String script, String exitStatusFile, java.time.Duration timeout,
                                         long graceMillis) {
        if (graceMillis < 0) {
            throw new IllegalArgumentException("grace cannot be negative");
        }
        return List.of(perl, script, "--usage", Long.toString(JOB_USAGE_PERIOD.toMillis()),
                exitStatusFile, timeout == null ? "0" : "+" + timeout.toMillis(), Long.toString(graceMillis));
    }

    /** The variable that names the environment file the wrapper reads and deletes ({@link #writeEnvironment}). */
    public static final String ENVIRONMENT_VARIABLE = RawLaunch.VARIABLE;

    /**
     * Writes the whole environment of a command (and its folder, when its name is not UTF-8) into
     * {@code file}, readable by the user only, for a wrapper that is started where no environment
     * can be handed to it privately (a batch job: sbatch's {@code --export=K=V} would show secrets
     * in {@code ps}). The wrapper reads it, deletes it, and applies it in the command's process.
     */
    public static void writeEnvironment(Path file, java.util.Map<String, String> env, Path cwd) throws IOException {
        RawLaunch.writeAll(file, env, cwd);
    }

    /** What {@link #writeEnvironment} writes, for a file written elsewhere (on a Slurm login host). */
    public static byte[] environment(java.util.Map<String, String> env, Path cwd) {
        return RawLaunch.encodeAll(env, cwd);
    }

    /**
     * The words that end a session's tree (the wrapper's kill mode): they ask the session's wrapper,
     * or do its kill without it when it is gone, and print its report ({@link WrapperReport}).
     * {@code held}: processes the owner last saw in the session, pid to start time.
     */
    public List<String> killCommand(Path exitStatusFile, long wrapperPid, long wrapperStartTicks, String signal,
                                    long graceMillis, String why, String tag, java.util.Map<Long, Long> held) {
        List<String> argv = new java.util.ArrayList<>(killMode());
        argv.addAll(List.of(exitStatusFile.toString(), Long.toString(wrapperPid), Long.toString(wrapperStartTicks), signal,
                Long.toString(graceMillis), why, tag));
        held.forEach((pid, start) -> argv.add(pid + ":" + start));
        return argv;
    }

    /** The words that start the wrapper's kill mode, before its arguments ({@link #killCommand}; {@code -}: a server of kills). */
    public List<String> killMode() {
        return List.of(perl.toString(), script.toString(), "--kill");
    }

    /** The deadline argument for a command with this timeout (null: none) launched at {@code launchEpochMillis}. */
    public static long deadline(java.time.Duration timeout, long launchEpochMillis) {
        return timeout == null ? 0 : launchEpochMillis + timeout.toMillis();
    }

    static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
