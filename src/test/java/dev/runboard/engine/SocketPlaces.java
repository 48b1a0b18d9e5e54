package dev.runboard.engine;

import java.nio.file.Path;

/** Where {@link SupervisorPaths} puts a data dir's supervisor socket, for tests outside this package (the README's check). */
public final class SocketPlaces {
    private SocketPlaces() {
    }

    /** The socket of {@code dataDir}'s supervisor given {@code $XDG_RUNTIME_DIR} (null: unset). */
    public static Path supervisor(Path dataDir, String runtimeDir) {
        return SupervisorPaths.socketFor(dataDir, runtimeDir);
    }
}
