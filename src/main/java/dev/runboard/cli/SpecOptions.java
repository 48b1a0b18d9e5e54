package dev.runboard.cli;

import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.WatchSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    @Option(names = "--cwd", paramLabel = "DIR", description = "Working directory (default: the current one).")
    Path cwd;

    @Option(names = "--env", paramLabel = "K=V", description = "Extra environment variable; repeatable.")
    List<String> env = List.of();

    @Option(names = "--timeout", paramLabel = "S", description = "Kill the tree after S seconds (at least 1; default: none).")
    Double timeoutSeconds;

    @Option(names = "--grace", paramLabel = "S", description = "Seconds between TERM and KILL when ending the tree (default: ${DEFAULT-VALUE}).", defaultValue = "2")
    double graceSeconds;

    @Option(names = "--preview-bytes", paramLabel = "N", description = "Bound of the in-memory output preview (default: ${DEFAULT-VALUE}).", defaultValue = "65536")
    int previewBytes;

    @Option(names = "--nice", paramLabel = "N", description = "Run COMMAND below normal priority: niceness N, 0 (normal,"
            + " the default) to 19 (lowest). The window starts its commands at 10 so they yield the CPU to it.", defaultValue = "0")
    int nice;

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

    @Option(names = "--hang-after", paramLabel = "S", description = "Hang watchdog: act when there has been no output for S seconds (at least 1).")
    Double hangAfterSeconds;

    @Option(names = "--hang-action", paramLabel = "warn|kill", description = "What the hang watchdog does: warn (an event) or kill the tree (default: warn).")
    String hangAction;

    @Option(names = "--max-rss", paramLabel = "SIZE", description = "Kill the tree when its RSS exceeds SIZE (bytes, or with K, M, G, T: 500M, 2G).")
    String maxRss;

    @Option(names = "--max-cpu", paramLabel = "PCT", description = "Kill the tree when its CPU stays above PCT %% (100 = one core) for --max-cpu-for seconds.")
    Double maxCpuPercent;

    @Option(names = "--max-cpu-for", paramLabel = "S", description = "How long the CPU must stay above --max-cpu (default: 10).")
    Double maxCpuForSeconds;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "The command. With a shell, the words are joined into one string.")
    List<String> commandWords;

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*((?i)[KMGT](?:i?B)?|B)?");
    private static final double DEFAULT_CPU_FOR_SECONDS = 10;

    SessionSpec toSpec() {
        if (noShell && shell != null) {
            throw new ParameterException(command.commandLine(), "--shell and --no-shell cannot be used together");
        }
        SessionSpec.Builder b = noShell ? SessionSpec.argv(commandWords) : SessionSpec.shell(String.join(" ", commandWords));
        if (shell != null) {
            b.shell(shell);
        }
        b.cwd(cwd == null ? Path.of("").toAbsolutePath() : cwd);
        b.env(parseEnv());
        if (timeoutSeconds != null) {
            b.timeout(Duration.ofMillis(Math.round(timeoutSeconds * 1000)));
        }
        if (graceSeconds < 0) {
            throw new ParameterException(command.commandLine(), "--grace cannot be negative");
        }
        b.grace(Duration.ofMillis(Math.round(graceSeconds * 1000)));
        b.previewBytes(previewBytes);
        b.pty(pty);
        b.nice(nice);
        b.watch(toWatch());
        return b.build();
    }

    private WatchSpec toWatch() {
        List<OutputRule> rules = new ArrayList<>();
        failOn.forEach(r -> rules.add(new OutputRule(r, OutputRule.Action.FAIL)));
        highlight.forEach(r -> rules.add(new OutputRule(r, OutputRule.Action.HIGHLIGHT)));
        notifyOn.forEach(r -> rules.add(new OutputRule(r, OutputRule.Action.NOTIFY)));
        WatchSpec watch = WatchSpec.NONE.withRules(rules);
        if (hangAction != null && hangAfterSeconds == null) {
            throw usage("--hang-action needs --hang-after S");
        }
        if (hangAfterSeconds != null) {
            watch = watch.withHang(seconds("--hang-after", hangAfterSeconds), parseHangAction(hangAction));
        }
        if (maxRss != null) {
            watch = watch.withMaxRss(parseSize(maxRss));
        }
        if (maxCpuForSeconds != null && maxCpuPercent == null) {
            throw usage("--max-cpu-for needs --max-cpu PCT");
        }
        if (maxCpuPercent != null) {
            if (maxCpuPercent <= 0) {
                throw usage("--max-cpu must be a positive percentage, got " + maxCpuPercent);
            }
            watch = watch.withMaxCpu(maxCpuPercent,
                    seconds("--max-cpu-for", maxCpuForSeconds == null ? DEFAULT_CPU_FOR_SECONDS : maxCpuForSeconds));
        }
        return watch;
    }

    private Duration seconds(String option, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw usage(option + " must be a number of seconds, got " + value);
        }
        return Duration.ofMillis(Math.round(value * 1000));
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

    /** "500M", "2G", "1.5g", "4096", "512KiB": binary units. */
    long parseSize(String text) {
        Matcher m = SIZE.matcher(text.strip());
        if (!m.matches()) {
            throw usage("--max-rss expects a size like 500M or 2G, got '" + text + "'");
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2).substring(0, 1).toUpperCase(Locale.ROOT);
        int shift = switch (unit) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            case "T" -> 40;
            default -> 0;
        };
        double bytes = n * (1L << shift);
        if (bytes < 1 || bytes >= Long.MAX_VALUE) {
            throw usage("--max-rss must be at least 1 byte, got '" + text + "'");
        }
        return Math.round(bytes);
    }

    private ParameterException usage(String message) {
        return new ParameterException(command.commandLine(), message);
    }

    /** These options as exec's arguments, ending with {@code -- COMMAND...}: how start hands the session to its manager. */
    List<String> toArgs() {
        List<String> args = new ArrayList<>();
        if (shell != null) {
            args.addAll(List.of("--shell", shell.toAbsolutePath().toString()));
        }
        if (noShell) {
            args.add("--no-shell");
        }
        args.addAll(List.of("--cwd", (cwd == null ? Path.of("") : cwd).toAbsolutePath().toString()));
        for (String kv : env) {
            args.addAll(List.of("--env", kv));
        }
        if (timeoutSeconds != null) {
            args.addAll(List.of("--timeout", String.valueOf(timeoutSeconds)));
        }
        if (pty) {
            args.add("--pty");
        }
        failOn.forEach(r -> args.addAll(List.of("--fail-on", r)));
        highlight.forEach(r -> args.addAll(List.of("--highlight", r)));
        notifyOn.forEach(r -> args.addAll(List.of("--notify-on", r)));
        if (hangAfterSeconds != null) {
            args.addAll(List.of("--hang-after", String.valueOf(hangAfterSeconds)));
        }
        if (hangAction != null) {
            args.addAll(List.of("--hang-action", hangAction));
        }
        if (maxRss != null) {
            args.addAll(List.of("--max-rss", maxRss));
        }
        if (maxCpuPercent != null) {
            args.addAll(List.of("--max-cpu", String.valueOf(maxCpuPercent)));
        }
        if (maxCpuForSeconds != null) {
            args.addAll(List.of("--max-cpu-for", String.valueOf(maxCpuForSeconds)));
        }
        args.addAll(List.of("--grace", String.valueOf(graceSeconds), "--preview-bytes", String.valueOf(previewBytes),
                "--nice", String.valueOf(nice), "--"));
        args.addAll(commandWords);
        return args;
    }

    private Map<String, String> parseEnv() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String kv : env) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new ParameterException(command.commandLine(), "--env expects NAME=VALUE, got '" + kv + "'");
            }
            out.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return out;
    }
}
