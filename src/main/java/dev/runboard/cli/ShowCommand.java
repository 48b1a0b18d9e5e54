package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import dev.runboard.store.Json;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runboard show ID}: one session's snapshot as JSON. */
@Command(name = "show", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Print one session's snapshot as JSON.", "A running session's output is read live."})
public final class ShowCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Parameters(paramLabel = "ID", description = "The session id (a unique prefix is enough).")
    String id;

    @picocli.CommandLine.Option(names = "--reveal", description = "Show secret environment values (from an env_file, or named"
            + " like secret_env_patterns) instead of ••••.")
    boolean reveal;

    @Override
    public Integer call() throws Exception {
        SupervisorClient client = store.client();
        spec.commandLine().getOut().println(Json.write(StoreAccess.show(client, id, reveal).json()));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
