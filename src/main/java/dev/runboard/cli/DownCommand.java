package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runboard down}: stops what {@code up} started from a file, dependants first, each with its grace. */
@Command(name = "down", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Stop what 'runboard up' started from a workspace file, dependants first, each with its grace.",
            "A command waiting to start ends killed without running; nothing stopped here restarts.",
            "No NAME: everything up started from that file."},
        footer = {"", "Exit status: 0 when it stopped them or nothing ran (it says so), 2 when FILE does not exist",
            "(and nothing runs from it) or a NAME is not in it.", "", "Examples:", "  runboard down", "  runboard down web"})
public final class DownCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "The workspace file (default: ./runboard.yaml).")
    Path file;

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "Commands or groups of the file.")
    List<String> names = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path workspace = UpCommand.fileOrDefault(file);
        List<String> stopped;
        try {
            stopped = store.client().downNames(workspace, names);
        } catch (SupervisorClient.RequestException e) {
            if (e.usage()) {
                throw new UsageException(e.getMessage());
            }
            throw e;
        }
        PrintWriter out = spec.commandLine().getOut();
        stopped.forEach(n -> out.println("stopped " + n));
        if (stopped.isEmpty()) {
            // Like 'supervisor stop' with none running: nothing to do is not a failure, but it is said.
            out.println("nothing " + (names.isEmpty() ? "" : "of " + String.join(", ", names) + " ") + "runs from " + workspace);
        }
        out.flush();
        return 0;
    }
}
