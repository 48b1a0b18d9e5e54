package dev.runboard.store;

import dev.runboard.session.RawText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What bin/runboard's early launch wrote of a command before it started it ({@value #FILE} in the
 * session's folder): who was to record the session (its client, the pid that exec'd into the JVM or
 * the exec client), when, and what ran ({@code SHELL -c COMMAND} in {@code CWD}). If that client dies
 * before it wrote the record, the wrapper ends the command and the data dir's supervisor records the
 * session from this: no command runs without a record.
 */
public record EarlySpec(long clientPid, Instant launchedAt, String cwd, String shell, String command) {
    public static final String FILE = "early.spec";

    /** The folder's early spec: its fields, each ended by a NUL; empty when there is none or it is not whole. */
    public static Optional<EarlySpec> read(Path folder) {
        Path file = folder.resolve(FILE);
        byte[] all;
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.empty();
            }
            all = Files.readAllBytes(file);
        } catch (IOException e) {
            return Optional.empty();
        }
        List<String> f = RawText.words(all);
        if (f.size() != 5 || all.length == 0 || all[all.length - 1] != 0) {
            return Optional.empty(); // written in part (its client died in the middle): nothing ran after it
        }
        try {
            return Optional.of(new EarlySpec(Long.parseLong(f.get(0)), Instant.ofEpochMilli(Long.parseLong(f.get(1))),
                    f.get(2), f.get(3), f.get(4)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
