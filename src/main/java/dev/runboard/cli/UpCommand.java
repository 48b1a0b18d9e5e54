package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import dev.runboard.engine.UpRequest;
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
            "No NAME: every command with autostart: true (none: nothing starts, and up exits 2 saying so).",
            "Services (servers, databases): --wait. Batches (test suites, builds): --until-ended."},
        footer = {"", "Exit status with --wait or --until-ended: 0 when all are ready (or completed),",
            "1 when any failed or was skipped. Each command's latest run is printed as it",
            "stands when up returns, with why it waits or was skipped.",
            "", "Examples:", "  runboard up", "  runboard up web --wait", "  runboard up tests --until-ended",
            "  runboard up -f stack/runboard.yaml tests"})
public final class UpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "The workspace file (default: ./runboard.yaml).")
    Path file;

    @Option(names = "--wait", description = "For services: wait until every command started is ready (its probe passed) or,"
            + " without a probe, has ended or stayed up --settle; exit 1 if any failed or was skipped by then.")
    boolean await;

    @Option(names = "--settle", paramLabel = "DURATION", defaultValue = "1s",
            description = "With --wait: how long a command without a probe must stay up to count as up (default: ${DEFAULT-VALUE}).")
    String settle;

    @Option(names = "--until-ended", description = "For batches (test suites): wait until every command started has ended;"
            + " exit 1 if any failed or was skipped.")
    boolean untilEnded;

    @Option(names = "--abort-on-failure", description = "Stop the whole stack (as down does) and exit 1 as soon as a command"
            + " fails or is skipped for good (no restart to come); waits as --until-ended unless --wait is given.")
    boolean abortOnFailure;

    @Option(names = "--no-deps", description = "Start only the named commands, not what they depend on (their conditions on"
            + " commands not started count as met).")
    boolean noDeps;

    @Option(names = "--force", description = "Restart the named commands: one that runs is stopped (its kill, its shutdown"
            + " step first) and started again once it has ended; one that succeeded while the stack runs runs again.")
    boolean force;

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "Commands or groups of the file.")
    List<String> names = new ArrayList<>();

    static Path fileOrDefault(Path file) {
        return ClientCall.current().resolve(file == null ? Path.of(dev.runboard.workspace.WorkspaceYaml.FILE_NAME) : file).normalize();
    }

    @Override
    public Integer call() throws Exception {
        if (await && untilEnded) {
            throw new UsageException("give --wait (services: until ready) or --until-ended (batches: until ended), not both");
        }
        java.time.Duration settleFor;
        try {
            settleFor = dev.runboard.session.Durations.parse(settle);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--settle: " + e.getMessage());
        }
        SupervisorClient client = store.client();
        UpRequest.Reply reply;
        try {
            reply = client.upReply(fileOrDefault(file), names,
                    new SupervisorClient.UpOptions(await, untilEnded, settleFor, force, noDeps, abortOnFailure, force));
        } catch (SupervisorClient.RequestException e) {
            if (e.usage()) {
                throw new UsageException(e.getMessage());
            }
            throw e;
        }
        PrintWriter out = spec.commandLine().getOut();
        for (UpRequest.Run s : reply.sessions()) {
            String reason = s.reason() == null ? "" : s.reason();
            out.printf(Locale.ROOT, "%-22s %-9s %s%s%n", s.id(), s.status().word(), s.name(), reason.isEmpty() ? "" : ": " + reason);
        }
        for (String d : reply.disabled()) {
            out.printf(Locale.ROOT, "%-22s %-9s %s%n", "-", "disabled", d);
        }
        out.flush();
        if (reply.failed() == null) {
            return 0;
        }
        PrintWriter err = spec.commandLine().getErr();
        for (String f : reply.failed()) {
            err.println("runboard up: " + f);
        }
        if (Boolean.TRUE.equals(reply.aborted())) {
            err.println("runboard up: stopped the stack (--abort-on-failure)");
        }
        err.flush();
        return reply.failed().isEmpty() ? 0 : 1;
    }
}
