package dev.runboard.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code runboard completion bash|zsh|fish}: a completion script of the subcommands, their options,
 * session ids and the workspace's command names ({@link CompletionScripts}, from the same command model
 * that parses them, so it cannot fall behind a new option).
 */
@Command(name = "completion", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Print a shell completion script: it completes the subcommands, their options, session ids",
            "and the command names of the runboard.yaml in the current folder."},
        footer = {"", "Examples:", "  source <(runboard completion bash)",
            "  runboard completion bash > ~/.local/share/bash-completion/completions/runboard",
            "  source <(runboard completion zsh)",
            "  runboard completion fish > ~/.config/fish/completions/runboard.fish",
            "Installed from the .deb, bash, zsh and fish find them by themselves."})
public final class CompletionCommand implements Callable<Integer> {
    /** The name the script completes: the command people type. */
    static final String COMMAND_NAME = "runboard";

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SHELL", completionCandidates = Shells.class,
            description = "The shell: bash, zsh or fish.")
    String shell;

    @Override
    public Integer call() throws UsageException {
        picocli.CommandLine root = spec.root().commandLine();
        String script = switch (shell) {
            case "bash" -> CompletionScripts.bash(root, COMMAND_NAME);
            case "zsh" -> CompletionScripts.zsh(root, COMMAND_NAME);
            case "fish" -> CompletionScripts.fish(root, COMMAND_NAME);
            default -> throw new UsageException("no completion for '" + shell + "'; say bash, zsh or fish");
        };
        PrintWriter out = spec.commandLine().getOut();
        out.print(script);
        out.flush();
        return 0;
    }

    /** What the script offers after {@code runboard completion}. */
    static final class Shells implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return List.of("bash", "zsh", "fish").iterator();
        }
    }
}
