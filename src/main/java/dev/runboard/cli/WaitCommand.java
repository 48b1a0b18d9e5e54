package dev.runboard.cli;

import dev.runboard.engine.ShownSnapshot;
import dev.runboard.engine.SupervisorClient;
import dev.runboard.session.ExecExitCode;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code runboard wait ID}: blocks until the session ends; exits with its exit code. */
@Command(name = "wait", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Wait for a session to end; exit with its exit code.",
            "124 on timeout, 125 when unknown. The supervisor owns the session (and is brought back to adopt it",
            "if it died), so its timeout holds."})
public final class WaitCommand implements Callable<Integer> {
    @Mixin
    StoreAccess store;

    @Parameters(paramLabel = "ID", description = "The session id (a unique prefix is enough).")
    String id;

    @Override
    public Integer call() throws Exception {
        SupervisorClient client = store.client();
        ShownSnapshot last = client.await(StoreAccess.resolveId(client, id));
        return ExecExitCode.of(last.status(), last.exitCode());
    }
}
