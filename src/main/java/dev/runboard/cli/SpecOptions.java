package dev.runboard.cli;

import dev.runboard.session.Durations;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Sizes;
import dev.runboard.session.WatchSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** The options that describe a session, shared by the subcommands that launch one. */
public final class SpecOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--shell", paramLabel = "SH", description = "Shell that runs COMMAND as one string (default: $SHELL, else /bin/sh).")
    Path shell;

    @Option(names = "--no-shell", description = "Run COMMAND as an argv list, with no shell.")
    boolean noShell;

    @Option(names = "--cwd", paramLabel = "DIR", converter = RawPathConverter.class,
            description = "Working directory (default: the current one; with --host, a folder on that host, by default"
            + " the same path as here).")
    Path cwd;

    /** A folder whose name is not UTF-8 is found by its bytes (RawPaths), where Path.of would lose them. */
    static final class RawPathConverter implements picocli.CommandLine.ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            return dev.runboard.session.RawPaths.path(value);
        }
    }

    @Option(names = "--host", paramLabel = "HOST", description = "Run COMMAND on HOST through OpenSSH: a Host alias of"
            + " your ssh config or user@box (your keys, agent and known_hosts as ssh uses them; $RUNBOARD_SSH_CONFIG"
            + " names another config file). The host needs only sh and perl. Default: here.")
    String host;

    @Option(names = "--slurm", description = "Run COMMAND as a Slurm batch job (sbatch): it waits in Slurm's queue as"
            + " pending, with Slurm's reason, then runs on a node under runboard's wrapper, its output and exit status in"
            + " the session's folder, which the node must share (docs/CLUSTERS.md). With --host, Slurm's commands run on that login host.")
    boolean slurm;

    @Option(names = "--sbatch", paramLabel = "ARG", description = "An argument for sbatch, passed as given (implies --slurm):"
            + " --sbatch=--partition=gpu --sbatch=--gres=gpu:1. Repeatable. Not " + dev.runboard.session.SlurmTarget.RUNBOARDS_OPTIONS
            + ": runboard sets those for every job.")
    List<String> sbatch = List.of();

    @Option(names = "--env", paramLabel = "K=V", description = "Extra environment variable; repeatable.")
    List<String> env = List.of();

    @Option(names = "--timeout", paramLabel = "DURATION", description = "Kill the tree after DURATION: 90, 30s, 5m, 1h30m, 500ms"
            + " (a bare number is seconds; 1 second to 365 days; default: none).")
    String timeout;

    @Option(names = "--grace", paramLabel = "DURATION", description = "Time between TERM and KILL when ending the tree, like"
            + " 2, 500ms, 10s (0 to 1 hour; default: ${DEFAULT-VALUE} seconds).", defaultValue = "2")
    String grace;

    @Option(names = "--preview-bytes", paramLabel = "SIZE", description = "Bound of the in-memory output preview: bytes, or"
            + " with K or M (1K to 16M; default: ${DEFAULT-VALUE}).", defaultValue = "65536")
    String previewBytes;

    @Option(names = "--max-output", paramLabel = "SIZE", description = "Keep only the newest SIZE of output while COMMAND"
            + " runs (K, M, G are KiB, MiB, GiB: 50M; at least 64K): the oldest is dropped from the capture's start in"
            + " place, a tenth of SIZE at a time, so a command that never ends keeps bounded disk. Default: all of it"
            + " (the setting default_max_output for sessions the supervisor starts).")
    String maxOutput;

    @Option(names = "--nice", paramLabel = "N", description = "Run COMMAND below normal priority: niceness N, 0 (normal,"
            + " the default) to 19 (lowest). The window starts its commands at 10 so they yield the CPU to it.", defaultValue = "0")
    String nice = "0"; // read here, not by picocli, whose "'abc' is not an int" named neither the option's range nor what to write

    @Option(names = "--pty", description = "Run COMMAND in a pseudo-terminal (120x40, TERM=xterm-256color): it colours"
            + " its output and flushes line by line; output still lands in the capture file.")
    boolean pty;

    @Option(names = "--fail-on", paramLabel = "REGEX", description = "End the session as failed when an output line"
            + " matches REGEX (ANSI colours ignored); the rule is the reason. Repeatable.")
    List<String> failOn = List.of();

    @Option(names = "--highlight", paramLabel = "REGEX", description = "Highlight output lines matching REGEX in the window. Repeatable.")
    List<String> highlight = List.of();

    @Option(names = "--notify-on", paramLabel = "REGEX", description = "Notify (window toast, notify-send) when a line"
            + " matches REGEX; at most once per rule every 10 s. Repeatable.")
    List<String> notifyOn = List.of();

    @Option(names = "--hang-after", paramLabel = "DURATION", description = "Hang watchdog: act when there has been no output"
            + " for DURATION, like 90, 30s, 5m (1 second to 365 days).")
    String hangAfter;

    @Option(names = "--hang-action", paramLabel = "warn|kill", description = "What the hang watchdog does: warn (an event) or kill the tree (default: warn).")
    String hangAction;

    @Option(names = "--max-rss", paramLabel = "SIZE", description = "Kill the tree when its RSS exceeds SIZE (bytes, or with"
            + " K, M, G, T for KiB, MiB, GiB, TiB: 500M, 2G; 1M to 1024T).")
    String maxRss;

    @Option(names = "--max-cpu", paramLabel = "PCT", description = "Kill the tree when its CPU stays above PCT %% (100 = one core)"
            + " for --max-cpu-for.")
    String maxCpuPercent; // read here, not by picocli, whose "'' is not a double" said neither what was wrong nor what to write

    @Option(names = "--max-cpu-for", paramLabel = "DURATION", description = "How long the CPU must stay above --max-cpu, like 10,"
            + " 30s, 5m (default: 10 seconds).")
    String maxCpuFor;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "The command. With a shell, the words are joined into one string.")
    List<String> commandWords;

    private static final Duration DEFAULT_CPU_FOR = Duration.ofSeconds(10);

    SessionSpec toSpec() {
        refuseEmptyValues();
        if (noShell && shell != null) {
            throw usage("--shell and --no-shell cannot be used together");
        }
        SessionSpec.Builder b = noShell ? SessionSpec.argv(commandWords) : SessionSpec.shell(String.join(" ", commandWords));
        ClientCall call = ClientCall.current(); // the folder and $SHELL of whoever typed the command
        if (shell != null) {
            b.shell(call.resolve(shell));
        } else if (host != null) {
            b.shell(Path.of("/bin/sh")); // this machine's $SHELL may not exist there
        } else {
            b.shell(call.shell());
        }
        b.host(host);
        if (slurm || !sbatch.isEmpty()) {
            b.slurm(inRange(() -> new dev.runboard.session.SlurmTarget(sbatch).check()));
        }
        b.cwd(cwd == null ? call.folderPath() : call.resolve(cwd));
        b.env(parseEnv());
        b.timeout(inRange(() -> SessionSpec.checkTimeout(duration("--timeout", timeout), "--timeout", timeout)));
        b.grace(inRange(() -> SessionSpec.checkGrace(duration("--grace", grace), "--grace", grace)));
        b.previewBytes(inRange(() -> SessionSpec.checkPreviewBytes(size("--preview-bytes", previewBytes),
                "--preview-bytes", previewBytes)));
        b.pty(pty);
        if (maxOutput != null) {
            long bytes = size("--max-output", maxOutput);
            b.maxOutputBytes(inRange(() -> SessionSpec.checkMaxOutput(bytes, "--max-output", maxOutput)));
        }
        b.nice(niceness());
        b.watch(toWatch());
        return b.build();
    }

    /**
     * An option given an empty value ({@code --shell=}, {@code --cwd "$UNSET"}) is refused, naming
     * the option and what to write: read on, an empty path is the current folder (a --cwd that runs
     * the command elsewhere than meant), an empty host runs it here, and the rest ended up in a
     * sentence with a hole where the value should be ("shell  is not executable").
     */
    private void refuseEmptyValues() {
        refuseEmpty("--shell", shell, "give a shell such as /bin/sh, or leave --shell out for $SHELL");
        refuseEmpty("--cwd", cwd, "give a folder, or leave --cwd out for the current one");
        refuseEmpty("--host", host, "give a Host alias of your ssh config or user@box, or leave --host out to run here");
        refuseEmpty("--timeout", timeout, "give a duration such as 30s, 5m or 1h30m, or leave --timeout out for none");
        refuseEmpty("--grace", grace, "give a duration such as 2, 500ms or 10s, or leave --grace out for 2 seconds");
        refuseEmpty("--preview-bytes", previewBytes, "give a size such as 64K or 1M, or leave --preview-bytes out for 64K");
        refuseEmpty("--max-output", maxOutput, "give a size such as 50M or 1G, or leave --max-output out to keep all output");
        refuseEmpty("--hang-after", hangAfter, "give a duration such as 90, 30s or 5m");
        refuseEmpty("--hang-action", hangAction, "give warn or kill, or leave --hang-action out to warn");
        refuseEmpty("--max-rss", maxRss, "give a size such as 500M or 2G");
        refuseEmpty("--max-cpu", maxCpuPercent, "give a percentage such as 150 (100 is one core)");
        refuseEmpty("--max-cpu-for", maxCpuFor, "give a duration such as 10, 30s or 5m, or leave --max-cpu-for out for 10 seconds");
        for (String kv : env) {
            refuseEmpty("--env", kv, "give NAME=VALUE");
        }
    }

    private void refuseEmpty(String option, Object value, String whatToWrite) {
        if (value != null && value.toString().isBlank()) {
            throw usage(option + " is empty (an unset variable?): " + whatToWrite);
        }
    }

    private WatchSpec toWatch() {
        List<OutputRule> rules = new ArrayList<>();
        failOn.forEach(r -> rules.add(new OutputRule(r, OutputRule.Action.FAIL)));
        highlight.forEach(r -> rules.add(new OutputRule(r, OutputRule.Action.HIGHLIGHT)));
        notifyOn.forEach(r -> rules.add(new OutputRule(r, OutputRule.Action.NOTIFY)));
        WatchSpec watch = WatchSpec.NONE.withRules(rules);
        if (hangAction != null && hangAfter == null) {
            throw usage("--hang-action needs --hang-after DURATION");
        }
        if (hangAfter != null) {
            watch = watch.withHang(inRange(() -> WatchSpec.checkHangAfter(duration("--hang-after", hangAfter),
                    "--hang-after", hangAfter)), parseHangAction(hangAction));
        }
        if (maxRss != null) {
            long bytes = parseSize(maxRss);
            watch = watch.withMaxRss(inRange(() -> WatchSpec.checkMaxRss(bytes, "--max-rss", maxRss)));
        }
        if (maxCpuFor != null && maxCpuPercent == null) {
            throw usage("--max-cpu-for needs --max-cpu PCT");
        }
        if (maxCpuPercent != null) {
            double given = percent(maxCpuPercent);
            double percent = inRange(() -> WatchSpec.checkMaxCpu(given, "--max-cpu", maxCpuPercent));
            Duration window = maxCpuFor == null ? DEFAULT_CPU_FOR
                    : inRange(() -> WatchSpec.checkCpuFor(duration("--max-cpu-for", maxCpuFor), "--max-cpu-for", maxCpuFor));
            watch = watch.withMaxCpu(percent, window);
        }
        return watch;
    }

    /** The Contract's duration grammar ({@link Durations}); null stays null (not given). */
    private Duration duration(String option, String text) {
        if (text == null) {
            return null;
        }
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw usage(option + ": " + e.getMessage());
        }
    }

    private static final String NICE_RANGE = "a whole number from 0 (normal) to " + SessionSpec.MAX_NICE + " (lowest)";

    private int niceness() {
        String t = nice.strip();
        if (t.isEmpty()) {
            throw usage("--nice is empty: give " + NICE_RANGE + ", or leave --nice out for normal priority");
        }
        long n;
        try {
            n = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw usage("--nice expects " + NICE_RANGE + ", got '" + nice + "'");
        }
        return inRange(() -> SessionSpec.checkNice(n, "--nice"));
    }

    private long size(String option, String text) {
        try {
            return Sizes.parse(text);
        } catch (IllegalArgumentException e) {
            throw usage(option + ": " + e.getMessage());
        }
    }

    /** Runs one of the shared range checks ({@link SessionSpec}, {@link WatchSpec}) as a usage error. */
    private <T> T inRange(java.util.function.Supplier<T> check) {
        try {
            return check.get();
        } catch (InvalidSpecException e) {
            throw usage(e.getMessage());
        }
    }

    private double percent(String text) {
        try {
            return Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            throw usage("--max-cpu expects a percentage such as 150 (100 is one core), got '" + text + "'");
        }
    }

    private WatchSpec.HangAction parseHangAction(String text) {
        if (text == null) {
            return WatchSpec.HangAction.WARN;
        }
        try {
            return WatchSpec.HangAction.valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw usage("--hang-action expects warn or kill, got '" + text + "'");
        }
    }

    /** "500M", "2G", "1.5g", "4096", "512KiB": binary units ({@link Sizes}). */
    long parseSize(String text) {
        if (!Sizes.isSize(text)) {
            throw usage("--max-rss expects a size like 500M or 2G, got '" + text + "' (K, M, G, T are KiB, MiB, GiB, TiB;"
                    + " a bare number is bytes)");
        }
        try {
            return Sizes.parse(text);
        } catch (IllegalArgumentException tooLarge) {
            throw usage("--max-rss must be " + Sizes.format(WatchSpec.MIN_RSS_BYTES) + " to " + Sizes.format(WatchSpec.MAX_RSS_BYTES)
                    + ", got " + text.strip());
        }
    }

    private RuntimeException usage(String message) {
        return new ParameterException(command.commandLine(), message);
    }

    /** These options as exec's arguments, ending with {@code -- COMMAND...}: how start hands the session to its manager. */
    List<String> toArgs() {
        List<String> args = new ArrayList<>();
        if (shell != null) {
            args.addAll(List.of("--shell", ClientCall.current().resolve(shell).toString()));
        }
        if (noShell) {
            args.add("--no-shell");
        }
        if (host != null) {
            args.addAll(List.of("--host", host));
        }
        if (slurm) {
            args.add("--slurm");
        }
        sbatch.forEach(a -> args.add("--sbatch=" + a));
        ClientCall call = ClientCall.current();
        args.addAll(List.of("--cwd", (cwd == null ? call.folderPath() : call.resolve(cwd)).toString()));
        for (String kv : env) {
            args.addAll(List.of("--env", kv));
        }
        if (timeout != null) {
            args.addAll(List.of("--timeout", timeout));
        }
        if (pty) {
            args.add("--pty");
        }
        if (maxOutput != null) {
            args.addAll(List.of("--max-output", maxOutput));
        }
        failOn.forEach(r -> args.addAll(List.of("--fail-on", r)));
        highlight.forEach(r -> args.addAll(List.of("--highlight", r)));
        notifyOn.forEach(r -> args.addAll(List.of("--notify-on", r)));
        if (hangAfter != null) {
            args.addAll(List.of("--hang-after", hangAfter));
        }
        if (hangAction != null) {
            args.addAll(List.of("--hang-action", hangAction));
        }
        if (maxRss != null) {
            args.addAll(List.of("--max-rss", maxRss));
        }
        if (maxCpuPercent != null) {
            args.addAll(List.of("--max-cpu", maxCpuPercent));
        }
        if (maxCpuFor != null) {
            args.addAll(List.of("--max-cpu-for", maxCpuFor));
        }
        args.addAll(List.of("--grace", grace, "--preview-bytes", previewBytes,
                "--nice", nice, "--"));
        args.addAll(commandWords);
        return args;
    }

    private Map<String, String> parseEnv() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String kv : env) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw usage("--env expects NAME=VALUE, got '" + kv + "'");
            }
            out.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return out;
    }
}
