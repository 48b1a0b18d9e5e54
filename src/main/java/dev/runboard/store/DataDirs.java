package dev.runboard.store;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/** Where runboard keeps its data: a flag, else {@code $RUNBOARD_HOME}, else {@code $XDG_DATA_HOME/runboard}, else {@code ~/.local/share/runboard}. */
public final class DataDirs {
    private DataDirs() {
    }

    public static Path resolve(Path fromFlag) {
        return resolve(fromFlag, System.getenv(), Path.of(System.getProperty("user.home")));
    }

    static Path resolve(Path fromFlag, Map<String, String> env, Path home) {
        if (fromFlag != null) {
            return fromFlag.toAbsolutePath().normalize();
        }
        String runboardHome = env.get("RUNBOARD_HOME");
        if (runboardHome != null && !runboardHome.isBlank()) {
            return Path.of(runboardHome).toAbsolutePath().normalize();
        }
        String xdg = env.get("XDG_DATA_HOME");
        // The XDG spec says relative values are invalid and must be ignored.
        if (xdg != null && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "runboard");
        }
        return home.resolve(".local/share/runboard");
    }

    /** Creates a directory (and parents) readable by its owner only: output can hold secrets. */
    public static Path createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return Files.createDirectories(dir);
    }
}
