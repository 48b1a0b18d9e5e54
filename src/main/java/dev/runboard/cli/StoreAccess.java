package dev.runboard.cli;

import dev.runboard.engine.ShownSnapshot;
import dev.runboard.engine.SupervisorClient;
import dev.runboard.process.EngineConfig;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.Session;
import dev.runboard.session.SessionService;
import dev.runboard.store.DataDirException;
import dev.runboard.store.DataDirs;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The {@code --data-dir} option and opening the store for the commands that read it. */
public final class StoreAccess {
    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Where sessions live (default: $RUNBOARD_HOME, else $XDG_DATA_HOME/runboard, else ~/.local/share/runboard).")
    Path dataDir;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    Path resolve() {
        ClientCall call = ClientCall.current();
        return DataDirs.resolve(dataDir == null ? null : call.resolve(dataDir), call.environment());
    }

    /**
     * The data dir, once {@link DataDirs#check} found it usable: else a usage error naming the
     * problem, before anything is started. A warning (modes made private) goes to stderr.
     */
    Path checked() throws UsageException {
        return check(resolve(), command);
    }

    /** {@link #checked()} for a command with its own {@code --data-dir} option (exec). */
    static Path check(Path dir, CommandSpec command) throws UsageException {
        try {
            DataDirs.check(dir).ifPresent(warning -> {
                command.commandLine().getErr().println(command.qualifiedName() + ": warning: " + warning);
                command.commandLine().getErr().flush();
            });
        } catch (DataDirException e) {
            throw new UsageException(e.getMessage());
        }
        return dir;
    }

    /** A client of the data dir's supervisor (started on the first request when none runs). */
    SupervisorClient client() throws UsageException {
        return SupervisorClient.forDataDir(checked(), ClientCall.current().environment());
    }

    /**
     * The data dir's sessions read from their records, never written: what a command that only
     * looks (tail) uses. A session whose owner died brings a supervisor up to adopt it.
     */
    SupervisedSessions follow() throws UsageException {
        SupervisorClient client = client();
        SupervisedSessions sessions = new SupervisedSessions(EngineConfig.forDataDir(client.paths().dataDir()), client);
        // A record that does not load (corrupt, from a newer runboard) is the supervisor's to log, and is
        // explained here only when it is the session asked for (find); later warnings, one line each.
        java.util.concurrent.atomic.AtomicBoolean loaded = new java.util.concurrent.atomic.AtomicBoolean();
        java.io.PrintWriter err = command.commandLine().getErr();
        sessions.warnThrough(warning -> {
            if (loaded.get()) {
                err.println(command.qualifiedName() + ": warning: " + warning);
                err.flush();
            }
        });
        sessions.load();
        loaded.set(true);
        return sessions;
    }

    /** The whole id a prefix names, asked of the supervisor; a usage error when none or several match. */
    static String resolveId(SupervisorClient client, String id) throws UsageException, java.io.IOException {
        try {
            return client.resolve(id);
        } catch (SupervisorClient.RequestException e) {
            if (e.usage()) {
                throw new UsageException(e.getMessage());
            }
            throw e;
        }
    }

    /** One session's snapshot, asked of the supervisor. */
    static ShownSnapshot show(SupervisorClient client, String id)
            throws UsageException, java.io.IOException {
        return show(client, id, false);
    }

    /** As {@link #show(SupervisorClient, String)}; {@code reveal}: secret environment values unmasked. */
    static ShownSnapshot show(SupervisorClient client, String id, boolean reveal)
            throws UsageException, java.io.IOException {
        try {
            return client.show(id, reveal);
        } catch (SupervisorClient.RequestException e) {
            if (e.usage()) {
                throw new UsageException(e.getMessage());
            }
            throw e;
        }
    }

    /** The session with this id, or the only one whose id starts with it. */
    static Session find(SupervisedSessions engine, String id) throws UsageException {
        if (id.isEmpty()) {
            throw new UsageException("no session id given"); // an empty prefix would match every session
        }
        List<Session> matches = engine.matching(id);
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (matches.isEmpty()) {
            throw new UsageException(dev.runboard.store.MissingSession.noSession(engine.dataDir(), id));
        }
        throw new UsageException(dev.runboard.session.SessionId.ambiguous(id, matches.stream().map(Session::id).toList()));
    }
}
