package dev.runboard.remote;

import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.nio.file.Path;

/**
 * runboard's own 0700 folder for ssh control sockets: {@code $XDG_RUNTIME_DIR/runboard-ssh} when
 * that is set (a runtime dir is short, private and cleared at logout), else {@code DATA/ssh}.
 */
final class ControlDir {
    /** A Unix socket path holds about 107 bytes; ssh adds a random suffix of ~17 to the path while it binds. */
    static final int SOCKET_PATH_LIMIT = 107 - 20;

    private ControlDir() {
    }

    static Path create(Path dataDir) throws IOException {
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        Path dir = runtime != null && !runtime.isBlank() ? Path.of(runtime, "runboard-ssh") : dataDir.resolve("ssh");
        if (dir.toAbsolutePath().toString().length() + 13 > SOCKET_PATH_LIMIT) {
            throw new IOException("the ssh control folder " + dir + " is too long a path for a socket; set"
                    + " XDG_RUNTIME_DIR to a short folder");
        }
        return DataDirs.createPrivateDirectories(dir);
    }
}
