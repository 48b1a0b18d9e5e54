package dev.runboard.engine;

import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where a data dir's supervisor lives: its lock and log in the data dir, its socket under
 * {@code $XDG_RUNTIME_DIR} when set and this user's alone (a Unix socket path is limited to about 107
 * bytes, and the runtime dir is short and private), else in the data dir.
 */
public record SupervisorPaths(Path dataDir, Path socket, Path lock, Path log) {
    /**
     * A file in the data dir naming the socket while a supervisor serves on it: bin/runboard reads
     * it with a shell built-in, where the socket's own path (a hash under the runtime dir) would
     * cost a fork to work out.
     */
    public Path address() {
        return dataDir.resolve("supervisor.address");
    }

    /** Leaves room below the kernel's 108-byte sun_path. */
    static final int MAX_SOCKET_PATH = 100;

    public static SupervisorPaths of(Path dataDir) {
        Path dir = dataDir.toAbsolutePath().normalize();
        return new SupervisorPaths(dir, socketFor(dir, System.getenv("XDG_RUNTIME_DIR")),
                dir.resolve("supervisor.lock"), dir.resolve("supervisor.log"));
    }

    static Path socketFor(Path dataDir, String runtimeDir) {
        return socketFor(dataDir, runtimeDir, "supervisor");
    }

    /**
     * The path of the data dir's socket called {@code name} ({@code supervisor}, {@code window}): under
     * the runtime dir when it is set and private, else in the data dir.
     */
    static Path socketFor(Path dataDir, String runtimeDir, String name) {
        Path inDataDir = dataDir.resolve(name + ".sock");
        if (runtimeDir == null || runtimeDir.isBlank() || !Path.of(runtimeDir).isAbsolute() || !dev.runboard.store.DataDirs.ownedAndPrivate(Path.of(runtimeDir))) {
            return inDataDir;
        }
        Path candidate = Path.of(runtimeDir, "runboard", name + "-" + shortHash(dataDir.toString()) + ".sock");
        return candidate.toString().length() <= MAX_SOCKET_PATH ? candidate : inDataDir;
    }

    /** The socket an open window of this data dir listens on for a second {@code runboard open} ({@link WindowDoor}). */
    public Path windowSocket() {
        return socketFor(dataDir, System.getenv("XDG_RUNTIME_DIR"), "window");
    }

    /**
     * Creates the socket's folder (0700) and the log (0600: a supervisor's output redirected there
     * would otherwise make it with the umask's mode), and checks the path fits a Unix socket address.
     */
    void prepare() throws IOException {
        DataDirs.createPrivateDirectories(dataDir);
        DataDirs.createPrivateDirectories(socket.getParent());
        DataDirs.ensurePrivateFile(log);
        if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
            throw new IOException("the supervisor's socket path " + socket + " is longer than a Unix socket allows ("
                    + MAX_SOCKET_PATH + " bytes); set XDG_RUNTIME_DIR or use a shorter --data-dir");
        }
    }

    private static String shortHash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
