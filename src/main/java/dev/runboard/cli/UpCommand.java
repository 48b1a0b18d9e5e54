package dev.runboard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code runboard up}: asks the supervisor to start a workspace's commands with their
 * dependencies; the supervisor then enforces dependencies, readiness, restarts and queues with no
 * window open.
 */
@Command(name = "up", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Start a workspace's commands with everything they depend on, and return.",
            "The supervisor starts each when its dependencies meet their conditions (depends_on), waits for",
            "readiness probes, restarts by each command's restart policy and keeps group queues, window or not.",
            "No NAME: every command with autostart: true (none: nothing starts, and up exits 2 saying so)."},
        footer = {"", "Exit status with --wait: 0 when all are ready (or completed), 1 when any failed or was skipped.",
            "", "Examples:", "  runboard up", "  runboard up web --wait", "  runboard up -f stack/runboard.yaml tests"})
public final class UpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "The workspace file (default: ./runboard.yaml).")
    Path file;

    @Option(names = "--wait", description = "Wait until every command is ready or has ended; exit 1 if any failed or was skipped.")
    boolean await;

    @Option(names = "--force", description = "Run the named commands again though they already succeeded while the"
            + " stack runs (a running command is never started twice).")
    boolean force;

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "Commands or groups of the file.")
    List<String> names = new ArrayList<>();

    static Path fileOrDefault(Path file) {
        return ClientCall.current().resolve(file == null ? Path.of(dev.runboard.workspace.WorkspaceYaml.FILE_NAME) : file).normalize();
    }

    @Override
    public Integer call() throws Exception {
        SupervisorClient client = store.client();
        JsonNode reply;
        try {
            reply = client.upReply(fileOrDefault(file), names, await, force);
        } catch (SupervisorClient.RequestException e) {
            if (e.usage()) {
                throw new UsageException(e.getMessage());
            }
            throw e;
        }
        PrintWriter out = spec.commandLine().getOut();
        for (JsonNode s : reply.path("sessions")) {
            out.printf(Locale.ROOT, "%-22s %-9s %s%n", s.path("id").asText(), s.path("status").asText(), s.path("name").asText());
        }
        out.flush();
        if (!await) {
            return 0;
        }
        PrintWriter err = spec.commandLine().getErr();
        for (JsonNode f : reply.path("failed")) {
            err.println("runboard up: " + f.asText());
        }
        err.flush();
        return reply.path("failed").isEmpty() ? 0 : 1;
    }
}
