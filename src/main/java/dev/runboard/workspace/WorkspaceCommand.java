package dev.runboard.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.runboard.session.SessionSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One named command of a workspace: the session fields as written in {@code runboard.yaml}.
 * Either {@code command} (a shell string) or {@code argv} (run without a shell). {@code cwd} is
 * relative to the workspace folder. {@code nice} defaults to the window's background priority
 * ({@link SessionSpec#BACKGROUND_NICE}). The {@code output} rules are kept as written but not
 * applied yet; unset fields are null so a file round-trips as written. {@code host} runs the command
 * on that ssh destination (a Host alias of the user's ssh config, or user@box); {@code slurm} as a
 * Slurm batch job ({@code true}, or {@code {sbatch: [ARGS]}}: docs/CLUSTERS.md).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"command", "argv", "shell", "cwd", "env", "timeout", "grace", "pty", "nice", "host", "group", "autostart", "output",
    "depends_on", "ready", "restart", "backoff", "delay",
    // issue 45's command keys
    "description", "disabled", "success_exit_codes", "log_file", "shutdown", "liveness", "max_output", "env_file",
    // issue 44's
    "slurm"})
public record WorkspaceCommand(
        String command,
        List<String> argv,
        String shell,
        String cwd,
        Map<String, String> env,
        @JsonDeserialize(using = DurationText.TimeoutReader.class) @JsonSerialize(using = DurationText.Writer.class) Duration timeout,
        @JsonDeserialize(using = DurationText.GraceReader.class) @JsonSerialize(using = DurationText.Writer.class) Duration grace,
        Boolean pty,
        String group,
        Boolean autostart,
        List<JsonNode> output,
        Integer nice,
        String host,
        @JsonProperty("depends_on") Map<String, String> dependsOn,
        ReadyCheck ready,
        String restart,
        RestartBackoff backoff,
        @JsonDeserialize(using = DurationText.Reader.class) @JsonSerialize(using = DurationText.Writer.class) Duration delay,
        // ---- issue 45's command keys (DESIGN.md "Stack keys added 2026-12-06"); see CommandExtras ----
        String description,
        Boolean disabled,
        @JsonProperty("success_exit_codes") List<Integer> successExitCodes,
        @JsonProperty("log_file") String logFile,
        ShutdownKey shutdown,
        LivenessCheck liveness,
        @JsonProperty("max_output") @JsonDeserialize(using = SizeText.MaxOutputReader.class)
        @JsonSerialize(using = SizeText.Writer.class) Long maxOutput,
        // issue 45: the command's env files, over the file's environment and env_file, under its env
        @JsonProperty("env_file")
        @com.fasterxml.jackson.annotation.JsonFormat(with = com.fasterxml.jackson.annotation.JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        List<String> envFile,
        // issue 44: run as a Slurm batch job
        @JsonDeserialize(using = SlurmKey.Reader.class) @JsonSerialize(using = SlurmKey.Writer.class)
        dev.runboard.session.SlurmTarget slurm) {

    /** The conditions a dependency can be waited for (DESIGN.md, "Contract"). */
    public static final List<String> CONDITIONS = List.of("started", "ready", "succeeded", "ended");
    /** The restart policies; {@code never} is the default. */
    public static final List<String> RESTARTS = List.of("never", "on-failure", "always");

    /** A local command without the orchestration keys (depends_on, ready, restart, backoff, delay). */
    public WorkspaceCommand(String command, List<String> argv, String shell, String cwd, Map<String, String> env,
                            Duration timeout, Duration grace, Boolean pty, String group, Boolean autostart,
                            List<JsonNode> output, Integer nice) {
        this(command, argv, shell, cwd, env, timeout, grace, pty, group, autostart, output, nice, null);
    }

    /** A command without the orchestration keys, on {@code host} (null: here). */
    public WorkspaceCommand(String command, List<String> argv, String shell, String cwd, Map<String, String> env,
                            Duration timeout, Duration grace, Boolean pty, String group, Boolean autostart,
                            List<JsonNode> output, Integer nice, String host) {
        this(command, argv, shell, cwd, env, timeout, grace, pty, group, autostart, output, nice, host, null, null, null, null, null);
    }

    /** A command with every key but {@code slurm}. */
    public WorkspaceCommand(String command, List<String> argv, String shell, String cwd, Map<String, String> env,
                            Duration timeout, Duration grace, Boolean pty, String group, Boolean autostart,
                            List<JsonNode> output, Integer nice, String host, Map<String, String> dependsOn, ReadyCheck ready,
                            String restart, RestartBackoff backoff, Duration delay, String description, Boolean disabled,
                            List<Integer> successExitCodes, String logFile, ShutdownKey shutdown, LivenessCheck liveness,
                            Long maxOutput, List<String> envFile) {
        this(command, argv, shell, cwd, env, timeout, grace, pty, group, autostart, output, nice, host, dependsOn, ready, restart,
                backoff, delay, description, disabled, successExitCodes, logFile, shutdown, liveness, maxOutput, envFile, null);
    }

    /** A command with every key but {@code env_file}. */
    public WorkspaceCommand(String command, List<String> argv, String shell, String cwd, Map<String, String> env,
                            Duration timeout, Duration grace, Boolean pty, String group, Boolean autostart,
                            List<JsonNode> output, Integer nice, String host, Map<String, String> dependsOn, ReadyCheck ready,
                            String restart, RestartBackoff backoff, Duration delay, String description, Boolean disabled,
                            List<Integer> successExitCodes, String logFile, ShutdownKey shutdown, LivenessCheck liveness,
                            Long maxOutput) {
        this(command, argv, shell, cwd, env, timeout, grace, pty, group, autostart, output, nice, host, dependsOn, ready, restart,
                backoff, delay, description, disabled, successExitCodes, logFile, shutdown, liveness, maxOutput, null);
    }

    /** A command with the orchestration keys and none of issue 45's, no max_output. */
    public WorkspaceCommand(String command, List<String> argv, String shell, String cwd, Map<String, String> env,
                            Duration timeout, Duration grace, Boolean pty, String group, Boolean autostart,
                            List<JsonNode> output, Integer nice, String host, Map<String, String> dependsOn, ReadyCheck ready,
                            String restart, RestartBackoff backoff, Duration delay) {
        this(command, argv, shell, cwd, env, timeout, grace, pty, group, autostart, output, nice, host, dependsOn, ready, restart,
                backoff, delay, null, null, null, null, null, null, null, null);
    }

    public WorkspaceCommand {
        if ((command == null) == (argv == null)) {
            throw new IllegalArgumentException(command == null
                    ? "a command needs either 'command' (a shell string) or 'argv' (a list)"
                    : "give either 'command' or 'argv', not both");
        }
        if (command != null && command.isBlank()) {
            throw new IllegalArgumentException("'command' is empty");
        }
        if (argv != null && (argv.isEmpty() || argv.get(0) == null || argv.get(0).isBlank())) {
            throw new IllegalArgumentException("'argv' is empty: give the program to run first");
        }
        if (argv != null && argv.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException("'argv' contains an empty (null) item");
        }
        if (env != null) {
            for (Map.Entry<String, String> e : env.entrySet()) {
                if (e.getKey().isEmpty() || e.getKey().indexOf('=') >= 0 || e.getKey().indexOf('\0') >= 0) {
                    throw new IllegalArgumentException("environment name '" + e.getKey() + "' is invalid");
                }
                if (e.getValue() == null) {
                    throw new IllegalArgumentException("environment variable " + e.getKey() + " has no value (write \"\" for empty)");
                }
                noNul(e.getValue(), "env");
            }
            env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
        }
        envFile = checkedEnvFiles(envFile);
        // The same ranges as every other front end (SessionSpec's checks), reported at the key's line.
        SessionSpec.checkTimeout(timeout, "'timeout'");
        SessionSpec.checkGrace(grace, "'grace'");
        if (nice != null && (nice < 0 || nice > SessionSpec.MAX_NICE)) {
            throw new IllegalArgumentException("'nice' must be 0 (normal priority) to " + SessionSpec.MAX_NICE + " (lowest)");
        }
        noNul(command, "command");
        noNul(shell, "shell");
        noNul(cwd, "cwd");
        if (argv != null) {
            argv.forEach(a -> noNul(a, "argv"));
        }
        argv = argv == null ? null : List.copyOf(argv);
        output = output == null ? null : List.copyOf(output);
        group = group == null || group.isBlank() ? null : group.strip();
        host = host == null || host.isBlank() ? null : SessionSpec.checkHost(host.strip());
        if (dependsOn != null) {
            for (Map.Entry<String, String> e : dependsOn.entrySet()) {
                if (e.getValue() == null || !CONDITIONS.contains(e.getValue())) {
                    throw new KeyedProblem("'depends_on' " + e.getKey() + ": '" + e.getValue()
                            + "' is not a condition (write started, ready, succeeded or ended)", "depends_on", e.getKey());
                }
            }
            dependsOn = dependsOn.isEmpty() ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(dependsOn));
        }
        if (restart != null && !RESTARTS.contains(restart)) {
            throw new IllegalArgumentException("'restart' must be never, on-failure or always, not '" + restart + "'");
        }
        // issue 45's command keys
        description = description == null || description.isBlank() ? null : description.strip();
        successExitCodes = CommandExtras.exitCodes(successExitCodes);
        noNul(logFile, "log_file");
        logFile = logFile == null || logFile.isBlank() ? null : logFile;
    }

    /** An environment mapping as written (the file's {@code environment}): names and values checked, or null. */
    static Map<String, String> checkedEnv(Map<String, String> env, String key) {
        if (env == null) {
            return null;
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().isEmpty() || e.getKey().indexOf('=') >= 0 || e.getKey().indexOf('\0') >= 0) {
                throw new IllegalArgumentException("environment name '" + e.getKey() + "' is invalid");
            }
            if (e.getValue() == null) {
                throw new IllegalArgumentException("environment variable " + e.getKey() + " has no value (write \"\" for empty)");
            }
            noNul(e.getValue(), key);
        }
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
    }

    /** {@code env_file} as written: paths, none empty; null when not given. */
    static List<String> checkedEnvFiles(List<String> files) {
        if (files == null) {
            return null;
        }
        for (String f : files) {
            if (f == null || f.isBlank()) {
                throw new IllegalArgumentException("'env_file' names an empty path");
            }
            noNul(f, "env_file");
        }
        return files.isEmpty() ? null : List.copyOf(files);
    }

    /** The command's env files, as written (relative to the workspace file's folder); empty when none. */
    public List<String> envFiles() {
        return envFile == null ? List.of() : envFile;
    }

    /** The dependencies by name with their conditions, in file order; empty when none. */
    public Map<String, String> dependencies() {
        return dependsOn == null ? Map.of() : dependsOn;
    }

    /** {@code never}, {@code on-failure} or {@code always}. */
    public String restartPolicy() {
        return restart == null ? "never" : restart;
    }

    /** A NUL cannot be passed to a program or be part of a path: refused here rather than when the command starts. */
    private static void noNul(String value, String key) {
        if (value != null && value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("'" + key + "' contains a NUL character");
        }
    }

    public static WorkspaceCommand shell(String command) {
        return new WorkspaceCommand(command, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    public static WorkspaceCommand argv(List<String> argv) {
        return new WorkspaceCommand(null, argv, null, null, null, null, null, null, null, null, null, null, null);
    }

    public WorkspaceCommand withCwd(String newCwd) {
        return new WorkspaceCommand(command, argv, shell, newCwd, env, timeout, grace, pty, group, autostart, output, nice, host,
                dependsOn, ready, restart, backoff, delay, description, disabled, successExitCodes, logFile, shutdown, liveness, maxOutput, envFile, slurm);
    }

    public WorkspaceCommand withEnv(Map<String, String> newEnv) {
        return new WorkspaceCommand(command, argv, shell, cwd, newEnv == null || newEnv.isEmpty() ? null : newEnv,
                timeout, grace, pty, group, autostart, output, nice, host, dependsOn, ready, restart, backoff, delay, description,
                disabled, successExitCodes, logFile, shutdown, liveness, maxOutput, envFile, slurm);
    }

    public WorkspaceCommand withGroup(String newGroup) {
        return new WorkspaceCommand(command, argv, shell, cwd, env, timeout, grace, pty, newGroup, autostart, output, nice, host,
                dependsOn, ready, restart, backoff, delay, description, disabled, successExitCodes, logFile, shutdown, liveness,
                maxOutput, envFile, slurm);
    }

    public WorkspaceCommand withPty(Boolean newPty) {
        return new WorkspaceCommand(command, argv, shell, cwd, env, timeout, grace, newPty, group, autostart, output, nice, host,
                dependsOn, ready, restart, backoff, delay, description, disabled, successExitCodes, logFile, shutdown, liveness, maxOutput, envFile, slurm);
    }

    public WorkspaceCommand withAutostart(Boolean newAutostart) {
        return new WorkspaceCommand(command, argv, shell, cwd, env, timeout, grace, pty, group, newAutostart, output, nice, host,
                dependsOn, ready, restart, backoff, delay, description, disabled, successExitCodes, logFile, shutdown, liveness, maxOutput, envFile, slurm);
    }

    /** The same command with these orchestration keys (an import keeps what the other tool declared). */
    public WorkspaceCommand withOrchestration(Map<String, String> newDependsOn, ReadyCheck newReady, String newRestart,
                                              RestartBackoff newBackoff, Duration newDelay) {
        return new WorkspaceCommand(command, argv, shell, cwd, env, timeout, grace, pty, group, autostart, output, nice, host,
                newDependsOn, newReady, newRestart, newBackoff, newDelay, description, disabled, successExitCodes, logFile, shutdown,
                liveness, maxOutput, envFile, slurm);
    }

    /** The same command with issue 45's keys (an import keeps what the other tool declared). */
    public WorkspaceCommand withExtras(String newDescription, Boolean newDisabled, List<Integer> newSuccessExitCodes,
                                       String newLogFile, ShutdownKey newShutdown, LivenessCheck newLiveness) {
        return new WorkspaceCommand(command, argv, shell, cwd, env, timeout, grace, pty, group, autostart, output, nice, host,
                dependsOn, ready, restart, backoff, delay, newDescription, newDisabled, newSuccessExitCodes, newLogFile, newShutdown,
                newLiveness, maxOutput, envFile, slurm);
    }

    /** {@code disabled: true}: never started; what depends on it ends skipped. */
    public boolean turnedOff() {
        return Boolean.TRUE.equals(disabled);
    }

    public boolean autostarts() {
        return Boolean.TRUE.equals(autostart);
    }

    /** The command as a person would type it. */
    public String displayCommand() {
        return command != null ? command : dev.runboard.session.ShellQuoting.join(argv);
    }

    /** The session to start for this command in a workspace whose folder is {@code root}. */
    public SessionSpec toSpec(Path root) {
        SessionSpec.Builder b = command != null ? SessionSpec.shell(command) : SessionSpec.argv(argv);
        if (shell != null && command != null) {
            b.shell(Path.of(shell));
        }
        b.cwd(cwd == null ? root : root.resolve(cwd).normalize());
        if (env != null) {
            env.forEach(b::env);
        }
        b.timeout(timeout);
        if (shutdown != null && shutdown.timeout() != null) {
            b.grace(shutdown.timeout()); // the time its shutdown step gets before the KILL sweep
        } else if (grace != null) {
            b.grace(grace);
        }
        b.pty(Boolean.TRUE.equals(pty));
        // Started from the window's sidebar, so in the background like the dialog's, unless the file says.
        b.nice(nice == null ? SessionSpec.BACKGROUND_NICE : nice);
        b.maxOutputBytes(maxOutput);
        b.host(host); // on that host, cwd is the same path as here unless the file names one of its own
        b.slurm(slurm);
        return b.build();
    }

    /** A session's spec as a workspace command: cwd relative to {@code root} when inside it, defaults left out. */
    public static WorkspaceCommand fromSpec(SessionSpec spec, Path root) {
        String shell = spec.usesShell() && spec.shell() != null && !spec.shell().equals(SessionSpec.defaultShell())
                ? spec.shell().toString() : null;
        String cwd = null;
        if (spec.cwd() != null) {
            Path abs = spec.cwd().toAbsolutePath().normalize();
            Path base = root.toAbsolutePath().normalize();
            if (abs.startsWith(base)) {
                String rel = base.relativize(abs).toString();
                cwd = rel.isEmpty() ? null : rel;
            } else {
                cwd = abs.toString();
            }
        }
        return new WorkspaceCommand(spec.usesShell() ? spec.shellCommand() : null, spec.usesShell() ? null : spec.argv(),
                shell, cwd, spec.env().isEmpty() ? null : spec.env(), spec.timeout(),
                SessionSpec.DEFAULT_GRACE.equals(spec.grace()) ? null : spec.grace(), spec.pty() ? Boolean.TRUE : null, null, null,
                null, spec.nice() == SessionSpec.BACKGROUND_NICE ? null : spec.nice(), spec.host(), null, null, null, null, null,
                null, null, null, null, null, null, spec.maxOutputBytes(), null, spec.slurm());
    }
}
