package dev.runboard.cli;

import dev.runboard.process.SessionEngine;
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
            "124 on timeout, 125 when unknown. If no runboard manages it any more, this takes it over,",
            "enforcing its timeout."})
public final class WaitCommand implements Callable<Integer> {
    @Mixin
    StoreAccess store;

    @Parameters(paramLabel = "ID", description = "The session id (a unique prefix is enough).")
    String id;

    @Override
    public Integer call() throws Exception {
        try (SessionEngine engine = store.open(true)) {
            engine.watchStore(Duration.ofMillis(200));
            Session session = StoreAccess.find(engine, id);
            SessionSnapshot last = ExecCommand.awaitEnd(session);
            return ExecCommand.exitCode(last);
        }
    }
}
