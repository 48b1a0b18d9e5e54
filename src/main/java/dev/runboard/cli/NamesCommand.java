package dev.runboard.cli;

import dev.runboard.workspace.Workspace;
import dev.runboard.workspace.WorkspaceException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code runboard names}: the command and group names of a workspace file, one a line, read by the
 * one parser {@code up} uses. Hidden: the shell completion scripts ask it what {@code up NAME} can be.
 */
@Command(name = "names", hidden = true, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Print the command and group names of runboard.yaml (for shell completion).")
public final class NamesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "The workspace file (default: ./runboard.yaml).")
    Path file;

    @Override
    public Integer call() throws UsageException {
        Path chosen = UpCommand.fileOrDefault(file);
        Workspace workspace;
        try {
            workspace = Workspace.read(chosen);
        } catch (WorkspaceException e) {
            throw new UsageException(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        workspace.commands().keySet().forEach(out::println);
        workspace.groups().keySet().stream().filter(g -> !g.equals(Workspace.NO_GROUP)).forEach(out::println);
        out.flush();
        return 0;
    }
}
