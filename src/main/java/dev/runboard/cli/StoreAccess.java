package dev.runboard.cli;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** The {@code --data-dir} option and opening the store for the commands that read it. */
public final class StoreAccess {
    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Where sessions live (default: $RUNBOARD_HOME, else $XDG_DATA_HOME/runboard, else ~/.local/share/runboard).")
    Path dataDir;

    Path resolve() {
        return DataDirs.resolve(dataDir);
    }

    /**
     * An engine on the store, its history loaded. With {@code adopt}, running sessions whose runboard
     * died are taken over (to wait on or kill them); without, only ended ones are finalised.
     */
    SessionEngine open(boolean adopt) throws UsageException {
        Path dir = resolve();
        checkOwner(dir);
        SessionEngine engine = SessionEngine.forDataDir(dir);
        engine.loadHistory(adopt);
        return engine;
    }

    private static void checkOwner(Path dir) throws UsageException {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            String owner = Files.getOwner(dir).getName();
            String me = System.getProperty("user.name");
            if (!owner.equals(me) && !"root".equals(me)) {
                throw new UsageException("the data dir " + dir + " belongs to user " + owner
                        + "; use your own with --data-dir or RUNBOARD_HOME");
            }
        } catch (UnsupportedOperationException | IOException e) {
            // no owner information on this file system: nothing to check
        }
    }

    /** The session with this id, or the only one whose id starts with it. */
    static Session find(SessionEngine engine, String id) throws UsageException {
        List<Session> matches = engine.sessions().stream().filter(s -> s.id().equals(id)).toList();
        if (matches.isEmpty()) {
            matches = engine.sessions().stream().filter(s -> s.id().startsWith(id)).toList();
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (matches.isEmpty()) {
            throw new UsageException("no session " + id + " in " + engine.config().dataDir() + " (see runboard list)");
        }
        throw new UsageException(id + " matches " + matches.size() + " sessions; give more of the id");
    }
}
