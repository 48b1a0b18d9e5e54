package dev.runboard.engine;

import dev.runboard.session.RawPaths;
import dev.runboard.session.RawText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * This client's environment, arguments and folder as the kernel has them, in {@link RawText}: Java
 * decodes each through UTF-8 and puts U+FFFD where a byte is not, so what {@code start} sent was not
 * what the user had. Read from /proc/self; where that cannot be read, Java's own (lossy) view.
 */
public final class RawProcess {
    private RawProcess() {
    }

    /** The environment, every byte kept. */
    public static Map<String, String> environment() {
        byte[] all;
        try {
            all = Files.readAllBytes(Path.of("/proc/self/environ"));
        } catch (IOException | RuntimeException e) {
            return System.getenv();
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String entry : RawText.words(all)) {
            int eq = entry.indexOf('=', 1);
            if (eq > 0) {
                env.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        // A variable changed since the JVM started (none is, in the CLI) would show in getenv only: trust the kernel's copy
        // only when it holds as many entries as getenv.
        return env.size() == System.getenv().size() ? env : System.getenv();
    }

    /** {@code main}'s arguments, every byte kept: the last {@code args.length} words of the command line. */
    public static String[] arguments(String[] args) {
        byte[] all;
        try {
            all = Files.readAllBytes(Path.of("/proc/self/cmdline"));
        } catch (IOException | RuntimeException e) {
            return args;
        }
        List<String> words = RawText.words(all);
        if (words.size() < args.length) {
            return args;
        }
        String[] raw = words.subList(words.size() - args.length, words.size()).toArray(String[]::new);
        for (int i = 0; i < raw.length; i++) {
            if (!RawText.display(raw[i]).equals(args[i]) && !raw[i].equals(args[i])) {
                return args; // not the same words (an @argfile, a launcher that rewrote them): Java's view
            }
        }
        return raw;
    }

    /** The current folder, every byte kept. */
    public static String folder() {
        try {
            return RawPaths.text(Files.readSymbolicLink(Path.of("/proc/self/cwd")));
        } catch (IOException | RuntimeException e) {
            return Path.of("").toAbsolutePath().toString();
        }
    }
}
