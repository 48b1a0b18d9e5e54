package dev.runboard.cli;

import dev.runboard.session.SessionSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
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

    @Option(names = "--pty", description = "Run COMMAND in a pseudo-terminal (120x40, TERM=xterm-256color): it colours"
            + " its output and flushes line by line; output still lands in the capture file.")
    boolean pty;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "The command. With a shell, the words are joined into one string.")
    List<String> commandWords;

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
        return b.build();
    }

    /** These options as exec's arguments, ending with {@code -- COMMAND...}: how start hands the session to its manager. */
    List<String> toArgs() {
        List<String> args = new java.util.ArrayList<>();
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
        args.addAll(List.of("--grace", String.valueOf(graceSeconds), "--preview-bytes", String.valueOf(previewBytes), "--"));
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
