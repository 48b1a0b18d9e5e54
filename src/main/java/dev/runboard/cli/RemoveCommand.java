package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code runboard remove ID... | --status S}: forgets finished sessions, their capture and (unless kept) their artifact. */
@Command(name = "remove", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Remove finished sessions: their record, their capture and their artifact (with"
            + " --keep-artifact the artifact file stays where it is, in the data dir's artifacts folder), as the"
            + " window's Remove does once its Undo has passed. A running or waiting session is refused: kill it first."
            + " Prints each removed id, then on stderr how many sessions and bytes went; exits 1 when one could not be removed."},
        footer = {"", "Examples:", "  runboard remove 20260114-093012-3f9a1c", "  runboard remove --status failed",
            "  runboard remove --keep-artifact 20260114-0930"})
public final class RemoveCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Parameters(arity = "0..*", paramLabel = "ID", description = "Session ids (a unique prefix is enough).")
    List<String> ids;

    @Option(names = "--status", paramLabel = "S",
            description = "Every session with this status instead: completed, failed, timeout, killed, skipped or unknown.")
    String status;

    @Option(names = "--keep-artifact", description = "Leave the artifact file in place.")
    boolean keepArtifact;

    @Override
    public Integer call() throws Exception {
        if (status != null && !SessionTargets.parse(status).isTerminal()) {
            throw new UsageException("only finished sessions can be removed, not " + status + " ones: kill them first");
        }
        SupervisorClient client = store.client();
        PrintWriter out = spec.commandLine().getOut();
        int failed = 0;
        int removed = 0;
        long bytes = 0;
        for (String id : SessionTargets.resolve(client, ids, status)) {
            try {
                bytes += client.remove(id, !keepArtifact);
                removed++;
                out.println(id);
            } catch (SupervisorClient.RequestException e) {
                failed++;
                spec.commandLine().getErr().println("runboard remove: " + e.getMessage());
            }
        }
        out.flush();
        // What went, in one line on stderr (stdout stays the ids, one a line, for scripts).
        spec.commandLine().getErr().println("runboard remove: removed " + removed + (removed == 1 ? " session, " : " sessions, ")
                + dev.runboard.session.Sizes.format(bytes) + " of files deleted");
        spec.commandLine().getErr().flush();
        return failed == 0 ? 0 : 1;
    }
}
