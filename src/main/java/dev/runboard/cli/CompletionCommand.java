package dev.runboard.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code runboard completion bash}: a bash completion script of the subcommands and their options,
 * made by picocli from the same command model that parses them, so it cannot fall behind a new option.
 */
@Command(name = "completion", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Print a shell completion script: it completes the subcommands and their options."},
        footer = {"", "Examples:", "  source <(runboard completion bash)",
            "  runboard completion bash > ~/.local/share/bash-completion/completions/runboard"})
public final class CompletionCommand implements Callable<Integer> {
    /** The name the script completes: the command people type. */
    static final String COMMAND_NAME = "runboard";

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SHELL", completionCandidates = Shells.class,
            description = "The shell: bash (zsh and fish are not supported yet).")
    String shell;

    @Override
    public Integer call() throws UsageException {
        if (!shell.equals("bash")) {
            throw new UsageException("no completion for '" + shell + "' yet; bash is the one supported");
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(AutoComplete.bash(COMMAND_NAME, spec.root().commandLine()));
        out.flush();
        return 0;
    }

    /** What the script offers after {@code runboard completion}. */
    static final class Shells implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return List.of("bash").iterator();
        }
    }
}
