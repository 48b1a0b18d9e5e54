package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import dev.runboard.session.Durations;
import dev.runboard.session.KillReport;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import dev.runboard.store.Json;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code runboard kill ID}: the tree kill, from the terminal; prints the kill report. */
@Command(name = "kill", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Kill a running session's whole process tree and print the kill report.",
            "Sends SIGNAL once to its process group, SIGKILL after the grace, then sweeps for processes that",
            "left the group. Prints the kill report as JSON; exits 0 when nothing survived, 1 when something did."})
public final class KillCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Parameters(paramLabel = "ID", description = "The session id (a unique prefix is enough).")
    String id;

    @Option(names = "--signal", paramLabel = "S", defaultValue = "TERM",
            description = "First signal: TERM, INT, HUP, QUIT, USR1, USR2 or KILL (default: ${DEFAULT-VALUE}).")
    String signal;

    @Option(names = "--grace", paramLabel = "DURATION",
            description = "Time before SIGKILL: 500ms, 5s, 1m; a bare number is seconds (default: the session's own grace).")
    String graceText;

    @Override
    public Integer call() throws Exception {
        Signal first;
        try {
            first = Signal.parse(signal);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Duration grace = null;
        if (graceText != null) {
            try {
                grace = Durations.parse(graceText);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--grace: " + e.getMessage());
            }
            try {
                SessionSpec.checkGrace(grace, "--grace");
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        SupervisorClient client = store.client();
        String session = StoreAccess.resolveId(client, id);
        KillReport report;
        try {
            report = client.kill(session, first, grace);
        } catch (SupervisorClient.RequestException e) {
            if (e.usage()) {
                throw new UsageException(e.getMessage());
            }
            throw e;
        }
        spec.commandLine().getOut().println(Json.write(report));
        spec.commandLine().getOut().flush();
        return report.clean() ? 0 : 1;
    }
}
