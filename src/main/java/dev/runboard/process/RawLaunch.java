package dev.runboard.process;

import dev.runboard.session.RawPaths;
import dev.runboard.session.RawText;
import dev.runboard.store.DataDirs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

/**
 * What of a launch Java cannot hand to a process as it is: environment entries and a working
 * folder whose bytes are not UTF-8 ({@link RawText}). {@code ProcessBuilder} takes Strings and writes
 * them as UTF-8, so such a value reached the command as U+FFFD, and such a folder "did not exist".
 * They go, as bytes, into a file only the user can read in the session's folder, which the wrapper
 * reads, deletes, and applies in the command's process before it runs it (runboard-wrap.pl).
 */
final class RawLaunch {
    /** Names the file for the wrapper; not passed on to the command. */
    static final String VARIABLE = "RUNBOARD_LAUNCH_RAW";
    static final String FILE = "launch.raw";

    private RawLaunch() {
    }

    /**
     * Moves the entries of {@code env} that hold bytes Java cannot pass, and {@code cwd} when its name
     * does, into the session folder's file, naming it in {@code env}; returns the folder to start the
     * wrapper in ({@code cwd}, or / when the wrapper enters {@code cwd} itself).
     */
    static Path separate(Map<String, String> env, Path cwd, Path sessionFolder) throws IOException {
        env.remove(VARIABLE);
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        String cwdText = cwd == null ? null : RawPaths.text(cwd);
        boolean rawCwd = RawText.isRaw(cwdText);
        if (rawCwd) {
            entry(raw, 'C', RawText.encode(cwdText));
        }
        for (Iterator<Map.Entry<String, String>> it = env.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, String> e = it.next();
            if (RawText.isRaw(e.getKey()) || RawText.isRaw(e.getValue())) {
                entry(raw, 'E', RawText.encode(e.getKey() + "=" + e.getValue()));
                it.remove();
            }
        }
        if (raw.size() == 0) {
            return cwd;
        }
        Path file = sessionFolder.resolve(FILE);
        Files.deleteIfExists(file);
        DataDirs.createPrivateFile(file);
        Files.write(file, raw.toByteArray());
        env.put(VARIABLE, file.toString());
        return rawCwd ? Path.of("/") : cwd;
    }

    /** Every entry of {@code env}, and {@code cwd} when its name is not UTF-8, into {@code file} (made private): see SessionWrapper#writeEnvironment. */
    static void writeAll(Path file, Map<String, String> env, Path cwd) throws IOException {
        byte[] raw = encodeAll(env, cwd);
        Files.deleteIfExists(file);
        DataDirs.createPrivateFile(file);
        Files.write(file, raw);
    }

    /** The bytes {@link #writeAll} writes. */
    static byte[] encodeAll(Map<String, String> env, Path cwd) {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        String cwdText = cwd == null ? null : RawPaths.text(cwd);
        if (RawText.isRaw(cwdText)) {
            entry(raw, 'C', RawText.encode(cwdText));
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            entry(raw, 'E', RawText.encode(e.getKey() + "=" + e.getValue()));
        }
        return raw.toByteArray();
    }

    /** One entry: its kind, its bytes, a NUL (which neither a name, a value nor a path can hold). */
    private static void entry(ByteArrayOutputStream out, char kind, byte[] bytes) {
        out.write(kind);
        out.writeBytes(bytes);
        out.write(0);
    }
}
