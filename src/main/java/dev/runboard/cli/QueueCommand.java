package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code runboard queue NAME --parallel N}: the limit of an ad-hoc queue (the same names as a workspace's groups). */
@Command(name = "queue", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Set how many sessions of a queue run at once; the rest wait queued, in order.",
            "Sessions join with 'runboard start --queue NAME'; a workspace group of that name shares the limit."},
        footer = {"", "Examples:", "  runboard queue tests --parallel 2", "  runboard start --queue tests -- ./suite-a.sh"})
public final class QueueCommand implements Callable<Integer> {
    @Mixin
    StoreAccess store;

    @Parameters(index = "0", paramLabel = "NAME", description = "The queue (or group) name.")
    String name;

    @Option(names = "--parallel", paramLabel = "N", required = true, description = "At most N of its sessions run at once.")
    int parallel;

    @Override
    public Integer call() throws Exception {
        if (name.isBlank()) {
            throw new UsageException("a queue needs a name, e.g. runboard queue builds --parallel 2");
        }
        if (parallel < 1) {
            throw new UsageException("--parallel must be 1 or more");
        }
        try {
            store.client().queue(name, parallel);
        } catch (SupervisorClient.RequestException e) {
            if (e.usage()) {
                throw new UsageException(e.getMessage());
            }
            throw e;
        }
        return 0;
    }
}
