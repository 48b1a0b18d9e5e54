package dev.runboard.cli;

import com.fasterxml.jackson.databind.JsonNode;
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
        footer = {"", "Examples:", "  runboard down", "  runboard down web"})
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
        JsonNode stopped;
        try {
            stopped = store.client().downNames(UpCommand.fileOrDefault(file), names);
        } catch (SupervisorClient.RequestException e) {
            if (e.usage()) {
                throw new UsageException(e.getMessage());
            }
            throw e;
        }
        PrintWriter out = spec.commandLine().getOut();
        stopped.forEach(n -> out.println("stopped " + n.asText()));
        out.flush();
        return 0;
    }
}
