package dev.runboard.process;

import dev.runboard.store.ArtifactStore;
import dev.runboard.store.FileArtifactStore;
import dev.runboard.store.SessionStore;
import java.nio.file.Path;
import java.time.Clock;

/**
 * What an engine needs from its surroundings: the session store, where artifacts go, the OS seam,
 * a clock and the retention limits. Tests swap the stores for ones that fail on demand.
 */
public record EngineConfig(SessionStore store, ArtifactStore artifacts, OsProcesses os, Clock clock, Retention retention) {

    /** Keep at most this many finished sessions and this many bytes of artifacts; the oldest finished go first. */
    public record Retention(int keepFinished, long keepArtifactBytes) {
        public static final Retention DEFAULT = of(dev.runboard.store.Settings.DEFAULTS);

        /** The limits the settings set (keep_finished, keep_artifact_bytes). */
        public static Retention of(dev.runboard.store.Settings settings) {
            return new Retention(settings.keepFinished(), settings.keepArtifactBytes());
        }
    }

    /** The standard layout under a data dir: {@code sessions/<id>/...}, {@code artifacts/<id>.log}. */
    public static EngineConfig forDataDir(Path dataDir) {
        return new EngineConfig(new SessionStore(dataDir), new FileArtifactStore(dataDir.resolve(FileArtifactStore.DIR_NAME)),
                OsProcesses.forThisMachine(), Clock.systemUTC(), Retention.DEFAULT);
    }

    public Path dataDir() {
        return store.dataDir();
    }

    public Path sessionsDir() {
        return store.sessionsDir();
    }

    public EngineConfig withArtifacts(ArtifactStore artifacts) {
        return new EngineConfig(store, artifacts, os, clock, retention);
    }

    public EngineConfig withStore(SessionStore store) {
        return new EngineConfig(store, artifacts, os, clock, retention);
    }

    public EngineConfig withOs(OsProcesses os) {
        return new EngineConfig(store, artifacts, os, clock, retention);
    }

    public EngineConfig withRetention(Retention retention) {
        return new EngineConfig(store, artifacts, os, clock, retention);
    }
}
