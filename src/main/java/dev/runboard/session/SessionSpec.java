package dev.runboard.session;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to run and how: immutable, validated by {@link #validate()} before anything starts.
 *
 * <p>The command is either a shell string run by {@link #shell()} ({@code shell -c command}) or an
 * argv list run directly ({@link #shell()} is then {@code null}). {@link #nice()} is the command's
 * scheduling niceness, 0 (normal) to 19 (lowest). {@link #host()} is an OpenSSH destination (a Host
 * alias of the user's ssh config, or {@code user@box}) the command runs on; null runs it here. For a
 * remote command the cwd and shell are paths on that host, checked there when it starts.
 */
public record SessionSpec(
        String shellCommand,
        List<String> argv,
        Path shell,
        Path cwd,
        Map<String, String> env,
        Duration timeout,
        Duration grace,
        int previewBytes,
        boolean pty,
        WatchSpec watch,
        int nice,
        String host,
        Long maxOutputBytes,
        java.util.Set<String> secretEnv,
        SlurmTarget slurm) {

    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);
    /**
     * The niceness the window starts commands with (what {@code nice} gives by default). They stay
     * inside runboard's scheduler group (its autogroup, or its cgroup), where the group's share
     * against other programs does not depend on the niceness of the tasks in it: so they lose
     * nothing to other programs, but yield the CPU to the window whenever it has a frame to draw.
     * At 0, twenty busy commands stretch the window's frames several-fold (docs/BENCHMARKS.md #2).
     */
    public static final int BACKGROUND_NICE = 10;
    public static final int MAX_NICE = 19;
    public static final int DEFAULT_PREVIEW_BYTES = 64 * 1024;
    public static final int MIN_PREVIEW_BYTES = 1024;
    /**
     * The largest preview bound, 16 MiB (256 times the default). The preview is held in memory for
     * every listed session and stored base64 in its record, which is re-read whenever another
     * runboard follows the session; 16 MiB keeps a record under 23 MB, readable in well under a
     * second (and within {@code store.Json}'s string limit). Whole outputs of any size are in the artifact.
     */
    public static final int MAX_PREVIEW_BYTES = 16 * 1024 * 1024;
    /** Shorter deadlines cannot be told from a start failure. */
    public static final Duration MIN_TIMEOUT = Duration.ofSeconds(1);
    /** A lower floor in ms, set by the test suite only, so deadline races need not wait a real second. */
    public static final String TEST_MIN_TIMEOUT_PROPERTY = "runboard.test.minTimeoutMillis";
    /**
     * The longest timeout (and hang watchdog, and CPU guard window): a year. Nobody means a longer
     * deadline (leave it empty for none), and without a bound a typo like 99999999999999999999 overflows
     * the scheduler ({@link Duration#toNanos()} ends at about 292 years).
     */
    public static final Duration MAX_TIMEOUT = Duration.ofDays(365);
    /**
     * The longest kill grace: an hour. A kill (the button, Ctrl-C, {@code down}) waits this long
     * between TERM and KILL; anything longer is a typo (seconds meant as milliseconds) that would
     * leave a tree half-killed for days.
     */
    public static final Duration MAX_GRACE = Duration.ofHours(1);
    /**
     * The smallest {@code max_output}: 64 KiB. The wrapper cuts whole file-system blocks (4 KiB on
     * ext4) a tenth of the bound at a time, so a smaller bound would cut more than a tenth each time.
     */
    public static final long MIN_MAX_OUTPUT = 64 * 1024;

    public SessionSpec {
        argv = argv == null ? null : List.copyOf(argv);
        env = env == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
        grace = grace == null ? DEFAULT_GRACE : grace;
        watch = watch == null ? WatchSpec.NONE : watch;
        host = host == null || host.isBlank() ? null : host.strip();
        secretEnv = secretEnv == null ? null : java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(secretEnv));
    }

    /**
     * The names of {@link #env()} whose values print as {@link SecretEnv#MASK}: {@link #secretEnv()}
     * as the engine marked it when the session was made (the settings' patterns, an env_file's names),
     * or, for a spec recorded before runboard marked secrets, the default patterns' matches.
     */
    public java.util.Set<String> secretNames() {
        if (secretEnv == null) {
            return SecretEnv.DEFAULT.secretNames(env, java.util.Set.of());
        }
        java.util.Set<String> names = new java.util.TreeSet<>(secretEnv);
        names.retainAll(env.keySet());
        return names;
    }

    /**
     * Specs are equal when they run the same: which values print masked is how the session is shown,
     * not what runs, so a spec the engine marked still finds the workspace command it came from.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof SessionSpec s && Objects.equals(shellCommand, s.shellCommand) && Objects.equals(argv, s.argv)
                && Objects.equals(shell, s.shell) && Objects.equals(cwd, s.cwd) && env.equals(s.env)
                && Objects.equals(timeout, s.timeout) && grace.equals(s.grace) && previewBytes == s.previewBytes && pty == s.pty
                && watch.equals(s.watch) && nice == s.nice && Objects.equals(host, s.host)
                && Objects.equals(maxOutputBytes, s.maxOutputBytes) && Objects.equals(slurm, s.slurm);
    }

    @Override
    public int hashCode() {
        return Objects.hash(shellCommand, argv, shell, cwd, env, timeout, grace, previewBytes, pty, watch, nice, host, maxOutputBytes, slurm);
    }

    /** The same spec with these secret names (null: not marked). */
    public SessionSpec withSecretEnv(java.util.Set<String> names) {
        return new SessionSpec(shellCommand, argv, shell, cwd, env, timeout, grace, previewBytes, pty, watch, nice, host, maxOutputBytes,
                names, slurm);
    }

    /** The same spec marked by {@code secrets}: its names matching the patterns, and those it already knew (from an env_file). */
    public SessionSpec markedBy(SecretEnv secrets) {
        java.util.Set<String> names = secrets.secretNames(env, secretEnv == null ? java.util.Set.of() : secretEnv);
        // What the defaults would mask anyway stays unmarked: the record is the one runboard always wrote.
        java.util.Set<String> marked = names.equals(SecretEnv.DEFAULT.secretNames(env, java.util.Set.of())) ? null : names;
        // The same spec when nothing changes: a start path may have prepared work for this very spec.
        return Objects.equals(marked, secretEnv) ? this : withSecretEnv(marked);
    }

    /** A spec that runs here or on an ssh host (no Slurm). */
    public SessionSpec(String shellCommand, List<String> argv, Path shell, Path cwd, Map<String, String> env, Duration timeout,
                       Duration grace, int previewBytes, boolean pty, WatchSpec watch, int nice, String host) {
        this(shellCommand, argv, shell, cwd, env, timeout, grace, previewBytes, pty, watch, nice, host, null, null, null);
    }

    /**
     * Whether the command's processes are somewhere else than below a wrapper this machine's runboard
     * started: on an ssh host, or in a Slurm job (on whatever node Slurm picks).
     */
    public boolean isRemote() {
        return host != null || slurm != null;
    }

    /** Whether the command runs as a Slurm batch job; with a {@link #host()}, submitted there. */
    public boolean isSlurm() {
        return slurm != null;
    }

    /** A shell string run by the user's shell ({@code $SHELL}, else {@code /bin/sh}) in the current directory. */
    public static Builder shell(String command) {
        return new Builder().shellCommand(command);
    }

    /** An argv list run with no shell in the current directory. */
    public static Builder argv(List<String> argv) {
        return new Builder().argv(argv);
    }

    public static Builder argv(String... argv) {
        return argv(List.of(argv));
    }

    public boolean usesShell() {
        return argv == null;
    }

    /** The command as a person would type it: the shell string, or the argv quoted for a POSIX shell. */
    public String displayCommand() {
        return usesShell() ? shellCommand : ShellQuoting.join(argv);
    }

    /** The argv handed to the OS: {@code shell -c command} or the argv itself. */
    public List<String> launchArgv() {
        return usesShell() ? List.of(shell.toString(), "-c", shellCommand) : argv;
    }

    /** Rejects a spec that cannot start, naming the field; checks the file system for cwd and shell. */
    public SessionSpec validate() {
        if (usesShell()) {
            if (shellCommand == null || shellCommand.isBlank()) {
                throw new InvalidSpecException("command", "command is empty: type the command to run");
            }
            if (shellCommand.indexOf('\0') >= 0) {
                throw new InvalidSpecException("command", "command contains a NUL character");
            }
            if (shell == null || shell.toString().isBlank()) {
                throw new InvalidSpecException("shell", "no shell given: give one such as /bin/sh");
            }
            if (host != null) {
                // the shell is a path on the remote host, checked there
            } else if (!Files.exists(shell)) {
                throw new InvalidSpecException("shell", "shell " + shell + " not found");
            }
            if (host == null && (Files.isDirectory(shell) || !Files.isExecutable(shell))) {
                throw new InvalidSpecException("shell", "shell " + shell + " is not executable");
            }
        } else {
            if (argv.isEmpty() || argv.get(0).isBlank()) {
                throw new InvalidSpecException("command", "command is empty: give the program to run");
            }
            if (argv.stream().anyMatch(a -> a.indexOf('\0') >= 0)) {
                throw new InvalidSpecException("command", "an argument contains a NUL character");
            }
        }
        if (cwd == null || cwd.toString().isBlank()) {
            // an empty path would be the current folder: not what was meant
            throw new InvalidSpecException("cwd", "no working directory given: give a folder");
        }
        if (slurm != null) {
            slurm.check();
        }
        if (isRemote()) {
            checkHost(host);
            checkRemoteSupports();
        }
        if (host != null) {
            // a folder on that host, checked there (a Slurm job's node shares the submit side's folders)
        } else if (!Files.exists(cwd)) {
            throw new InvalidSpecException("cwd", "cwd " + cwd + " does not exist" + tildeHint(cwd));
        } else if (!Files.isDirectory(cwd)) {
            throw new InvalidSpecException("cwd", "cwd " + cwd + " is not a directory");
        }
        for (String key : env.keySet()) {
            if (key.isEmpty() || key.indexOf('=') >= 0 || key.indexOf('\0') >= 0) {
                throw new InvalidSpecException("env", "environment name '" + key + "' is invalid (empty, or contains '=' or NUL)");
            }
            if (env.get(key) == null || env.get(key).indexOf('\0') >= 0) {
                throw new InvalidSpecException("env", "environment value of " + key + " is missing or contains NUL");
            }
        }
        checkTimeout(timeout, "timeout");
        checkGrace(grace, "kill grace");
        checkNice(nice, "priority (nice)");
        checkPreviewBytes(previewBytes, "preview bound");
        checkMaxOutput(maxOutputBytes, "max_output");
        watch.validate();
        watch.rules().forEach(OutputRule::checkMatchesSomething); // for a new session; a record read back is not asked
        return this;
    }

    /** A '~' that reached runboard was quoted, or came from a file: no shell made it the home folder. */
    private static String tildeHint(Path cwd) {
        for (Path part : cwd) {
            if (part.toString().startsWith("~")) {
                return " (its '" + part + "' is not a home folder: the shell expands only an unquoted ~ at the start of a word;"
                        + " write $HOME/... or the whole path)";
            }
        }
        return "";
    }

    /**
     * Rejects a timeout outside {@link #MIN_TIMEOUT} to {@link #MAX_TIMEOUT} (null, none, is fine).
     * Every front end calls the same check, naming the field its own way ({@code what}: "timeout",
     * "--timeout", "'timeout'").
     */
    public static Duration checkTimeout(Duration timeout, String what) {
        return checkTimeout(timeout, what, null);
    }

    /**
     * As {@link #checkTimeout(Duration, String)}, echoing {@code given} (the value as the person wrote it)
     * in the message rather than the parsed duration, so the message shows what they typed.
     */
    public static Duration checkTimeout(Duration timeout, String what, String given) {
        // An option is left out, a field or key left empty: a CLI user told to leave --timeout empty got "empty duration".
        String none = what.startsWith("--") ? " (leave " + what + " out for none)" : " (leave it empty for none)";
        Duration floor = minTimeout();
        if (timeout != null && timeout.compareTo(floor) < 0) {
            String least = floor.equals(MIN_TIMEOUT) ? "1 second" : Durations.describe(floor);
            throw new InvalidSpecException("timeout", what + " must be at least " + least + none);
        }
        if (timeout != null && timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new InvalidSpecException("timeout", what + " must be at most " + Durations.describe(MAX_TIMEOUT)
                    + ", got " + echo(given, Durations.describe(timeout)) + none);
        }
        return timeout;
    }

    /** The shortest deadline allowed: {@link #MIN_TIMEOUT}, unless the test suite set {@link #TEST_MIN_TIMEOUT_PROPERTY}. */
    public static Duration minTimeout() {
        Long millis = Long.getLong(TEST_MIN_TIMEOUT_PROPERTY);
        return millis == null ? MIN_TIMEOUT : Duration.ofMillis(Math.max(1, millis));
    }

    /** Rejects a kill grace that is negative or longer than {@link #MAX_GRACE}. */
    public static Duration checkGrace(Duration grace, String what) {
        return checkGrace(grace, what, null);
    }

    /** As {@link #checkGrace(Duration, String)}, echoing {@code given} as written. */
    public static Duration checkGrace(Duration grace, String what, String given) {
        if (grace != null && grace.isNegative()) {
            throw new InvalidSpecException("grace", what + " cannot be negative");
        }
        if (grace != null && grace.compareTo(MAX_GRACE) > 0) {
            throw new InvalidSpecException("grace", what + " must be at most " + Durations.describe(MAX_GRACE)
                    + ", got " + echo(given, Durations.describe(grace)));
        }
        return grace;
    }

    /** Rejects a niceness outside 0 to {@link #MAX_NICE}. */
    public static int checkNice(long nice, String what) {
        if (nice < 0 || nice > MAX_NICE) {
            throw new InvalidSpecException("nice", what + " must be 0 (normal) to " + MAX_NICE
                    + " (lowest); a command cannot be run above normal priority without privileges");
        }
        return (int) nice;
    }

    /** Rejects a preview bound outside {@link #MIN_PREVIEW_BYTES} to {@link #MAX_PREVIEW_BYTES}. */
    public static int checkPreviewBytes(long bytes, String what) {
        return checkPreviewBytes(bytes, what, null);
    }

    /** As {@link #checkPreviewBytes(long, String)}, echoing {@code given} as written. */
    public static int checkPreviewBytes(long bytes, String what, String given) {
        if (bytes < MIN_PREVIEW_BYTES || bytes > MAX_PREVIEW_BYTES) {
            throw new InvalidSpecException("preview", what + " must be " + Sizes.format(MIN_PREVIEW_BYTES) + " to "
                    + Sizes.format(MAX_PREVIEW_BYTES) + " (" + MIN_PREVIEW_BYTES + " to " + MAX_PREVIEW_BYTES
                    + " bytes), got " + echo(given, bytes + " bytes"));
        }
        return (int) bytes;
    }

    /** Rejects a {@code max_output} below {@link #MIN_MAX_OUTPUT} (null, unbounded, is fine). */
    public static Long checkMaxOutput(Long bytes, String what) {
        return checkMaxOutput(bytes, what, null);
    }

    /** As {@link #checkMaxOutput(Long, String)}, echoing {@code given} as written. */
    public static Long checkMaxOutput(Long bytes, String what, String given) {
        if (bytes != null && bytes < MIN_MAX_OUTPUT) {
            throw new InvalidSpecException("max_output", what + " must be at least " + Sizes.format(MIN_MAX_OUTPUT)
                    + " (leave it out to keep the whole output), got " + echo(given, bytes + " bytes"));
        }
        return bytes;
    }

    /**
     * What a range message says it got: the value as the person wrote it when known ({@code 1025T},
     * {@code 366d}), else an exact form of the parsed value, never a rounded one, which could
     * contradict the limit beside it ("at most 1 PiB, got 1 PiB").
     */
    static String echo(String given, String exact) {
        return given == null || given.isBlank() ? exact : given.strip();
    }

    /**
     * Rejects a host that ssh would read as an option or that cannot be one destination (blank
     * inside, control characters): it is passed to ssh as one argument after {@code --}.
     */
    public static String checkHost(String host) {
        if (host != null && (host.startsWith("-") || host.chars().anyMatch(c -> c <= ' ' || c == 127))) {
            throw new InvalidSpecException("host", "host '" + host + "' is not an ssh destination: give a Host alias"
                    + " from your ssh config or user@box");
        }
        return host;
    }

    /**
     * What a remote session cannot do yet, refused rather than silently dropped: a terminal. (The
     * watchdog reads the output mirrored here; the guards the tree's usage its host's poll samples.)
     */
    private void checkRemoteSupports() {
        if (pty) {
            throw new InvalidSpecException("pty", "a pseudo-terminal is not available for sessions on another host or in"
                    + " a Slurm job yet: leave out --pty (or --host, --slurm)");
        }
        if (maxOutputBytes != null) {
            throw new InvalidSpecException("max_output", "max_output is not available for sessions on another host or"
                    + " in a Slurm job yet: leave out --max-output (or --host, --slurm)");
        }
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.shellCommand = shellCommand;
        b.argv = argv;
        b.shell = shell;
        b.cwd = cwd;
        b.env = new LinkedHashMap<>(env);
        b.timeout = timeout;
        b.grace = grace;
        b.previewBytes = previewBytes;
        b.pty = pty;
        b.watch = watch;
        b.nice = nice;
        b.host = host;
        b.maxOutputBytes = maxOutputBytes;
        b.secretEnv = secretEnv;
        b.slurm = slurm;
        return b;
    }

    /** The user's shell: {@code $SHELL} when set, else {@code /bin/sh}. */
    public static Path defaultShell() {
        String fromEnv = System.getenv("SHELL");
        return Path.of(fromEnv == null || fromEnv.isBlank() ? "/bin/sh" : fromEnv);
    }

    public static final class Builder {
        private String shellCommand;
        private List<String> argv;
        private Path shell = defaultShell();
        private Path cwd = Path.of("").toAbsolutePath();
        private Map<String, String> env = new LinkedHashMap<>();
        private Duration timeout;
        private Duration grace = DEFAULT_GRACE;
        private int previewBytes = DEFAULT_PREVIEW_BYTES;
        private boolean pty;
        private WatchSpec watch = WatchSpec.NONE;
        private int nice;
        private String host;
        private Long maxOutputBytes;
        private java.util.Set<String> secretEnv;
        private SlurmTarget slurm;

        public Builder shellCommand(String command) {
            this.shellCommand = Objects.requireNonNullElse(command, "");
            this.argv = null;
            return this;
        }

        public Builder argv(List<String> argv) {
            this.argv = List.copyOf(argv);
            this.shellCommand = null;
            return this;
        }

        public Builder shell(Path shell) {
            this.shell = shell;
            return this;
        }

        public Builder cwd(Path cwd) {
            this.cwd = cwd == null ? null : cwd.toAbsolutePath().normalize();
            return this;
        }

        public Builder env(String key, String value) {
            this.env.put(key, value);
            return this;
        }

        public Builder env(Map<String, String> env) {
            this.env = new LinkedHashMap<>(env);
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder grace(Duration grace) {
            this.grace = grace;
            return this;
        }

        public Builder previewBytes(int previewBytes) {
            this.previewBytes = previewBytes;
            return this;
        }

        /** Run the command in a pseudo-terminal (colours, line-buffered output) instead of with a plain file as stdout. */
        public Builder pty(boolean pty) {
            this.pty = pty;
            return this;
        }

        /** Output rules, hang watchdog and runaway guards. */
        public Builder watch(WatchSpec watch) {
            this.watch = watch;
            return this;
        }

        /** Scheduling niceness of the command: 0 (normal, the default) to 19 (lowest). */
        public Builder nice(int nice) {
            this.nice = nice;
            return this;
        }

        /** Run on this ssh destination (a Host alias or user@box); null or blank: here. */
        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /**
         * Keep only the newest {@code bytes} of the running command's output (null: all of it): the
         * wrapper cuts the oldest from the capture's start in place while the command writes.
         */
        public Builder maxOutputBytes(Long bytes) {
            this.maxOutputBytes = bytes;
            return this;
        }

        /** Names of the environment whose values are secrets (read from an env_file); null: none known yet. */
        public Builder secretEnv(java.util.Set<String> names) {
            this.secretEnv = names;
            return this;
        }

        /** Run as a Slurm batch job with these sbatch arguments; null: not through Slurm. */
        public Builder slurm(SlurmTarget slurm) {
            this.slurm = slurm;
            return this;
        }

        /** The spec as given; call {@link SessionSpec#validate()} (the engine does) before running it. */
        public SessionSpec build() {
            return new SessionSpec(shellCommand, argv, argv == null ? shell : null, cwd, env, timeout, grace, previewBytes,
                    pty, watch, nice, host, maxOutputBytes, secretEnv, slurm);
        }
    }
}
