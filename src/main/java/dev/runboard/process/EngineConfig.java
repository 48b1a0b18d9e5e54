package dev.runboard.process;

import dev.runboard.store.ArtifactStore;
import dev.runboard.store.FileArtifactStore;
import java.nio.file.Path;
import java.time.Clock;

/**
 * What an engine needs from its surroundings: where captures live, where artifacts go, the OS
 * seam and a clock. Tests swap the artifact store for one that fails on demand.
 */
public record EngineConfig(Path sessionsDir, ArtifactStore artifacts, OsProcesses os, Clock clock) {

    /** The standard layout under a data dir: {@code sessions/<id>/capture.log}, {@code artifacts/<id>.log}. */
    public static EngineConfig forDataDir(Path dataDir) {
        return new EngineConfig(dataDir.resolve("sessions"), new FileArtifactStore(dataDir.resolve("artifacts")),
                OsProcesses.forThisMachine(), Clock.systemUTC());
    }

    public EngineConfig withArtifacts(ArtifactStore store) {
        return new EngineConfig(sessionsDir, store, os, clock);
    }
}
