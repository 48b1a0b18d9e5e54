package dev.runboard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file a test command waits for before it goes on: it keeps a command running until the test has
 * looked at it, however long a loaded machine took to get there (a fixed sleep can be outlasted).
 */
public final class Gate {
    private Gate() {
    }

    /** Shell words that wait, without output, until {@code name} exists in the command's cwd; end with "; ". */
    public static String waitFor(String name) {
        return "until [ -e " + name + " ]; do sleep 0.2; done; ";
    }

    /** Lets every command waiting for {@code name} in {@code cwd} go on. */
    public static void open(Path cwd, String name) throws IOException {
        Files.createFile(cwd.resolve(name));
    }
}
