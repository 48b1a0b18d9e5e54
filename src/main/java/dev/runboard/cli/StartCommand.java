package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.SessionSpec;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code runboard start}: asks the data dir's supervisor to launch a session and prints its id.
 * The spec (environment included) travels over the supervisor's socket, never on a command line.
 */
@Command(name = "start", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Start a command in the background and print its session id.",
            "The supervisor owns it (started on demand); the window shows it at once. Takes exec's options."},
        footer = {"", "Examples:", "  id=$(runboard start --timeout 3600 -- make test)", "  runboard tail -f $id",
            "  runboard wait $id", "  runboard start --hang-after 300 --hang-action kill -- ./nightly.sh"})
public final class StartCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SpecOptions specOptions;

    @Mixin
    StoreAccess store;

    @picocli.CommandLine.Option(names = "--queue", paramLabel = "NAME",
            description = "Wait for a slot in this queue (see runboard queue NAME --parallel N); queued until then.")
    String queue;

    @picocli.CommandLine.Option(names = "--after", paramLabel = "ID[:COND]",
            description = "Start once session ID meets COND: succeeded (default), started, ready or ended;"
                    + " skipped if it never can. Repeatable.")
    java.util.List<String> after = new java.util.ArrayList<>();

    /**
     * The spec that {@code runboard start ARGS} asks for, parsed the way this command parses them:
     * how the supervisor reads the spec bin/runboard's exec client hands it (adopt_exec).
     */
    public static SessionSpec parseSpec(java.util.List<String> args) {
        StartCommand command = new StartCommand();
        try {
            new picocli.CommandLine(command).parseArgs(args.toArray(String[]::new));
        } catch (picocli.CommandLine.ParameterException e) {
            throw new InvalidSpecException("args", e.getMessage() + " (see runboard start --help)");
        }
        SessionSpec spec = command.specOptions.toSpec();
        spec.validate();
        return spec;
    }

    @Override
    public Integer call() throws Exception {
        if (queue != null && queue.isBlank()) {
            throw new UsageException("--queue needs a name, e.g. --queue builds (runboard queue builds --parallel 2 sets its limit)");
        }
        if (after.stream().anyMatch(String::isBlank)) {
            throw new UsageException("--after is empty (an unset variable?): give a session id, e.g. --after ID or --after ID:ready");
        }
        SessionSpec sessionSpec;
        try {
            sessionSpec = specOptions.toSpec();
            sessionSpec.validate();
        } catch (InvalidSpecException e) {
            throw new UsageException(e.getMessage());
        }
        SupervisorClient client = store.client();
        String id;
        try {
            id = queue == null && after.isEmpty() ? client.start(sessionSpec) : client.start(sessionSpec, queue, after);
        } catch (InvalidSpecException e) {
            throw new UsageException(e.getMessage());
        }
        spec.commandLine().getOut().println(id);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
