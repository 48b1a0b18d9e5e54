package dev.runboard.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The command a session's wrapper runs, as it wrote it into the session's folder ({@code command}:
 * "PID START_TICKS"): the leader of the command's own process group, below the wrapper. Group
 * signals (pause, resume) go to it, and when the wrapper is gone the owner watches it by pid and
 * start time.
 */
record WrappedCommand(long pid, long startTicks) {

    /** The command the wrapper named, or empty: not written yet, or a wrapper older than the file. */
    static Optional<WrappedCommand> read(Path file) {
        try {
            String[] f = Files.readString(file, StandardCharsets.ISO_8859_1).strip().split(" ");
            return f.length == 2 ? Optional.of(new WrappedCommand(Long.parseLong(f[0]), Long.parseLong(f[1]))) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The process group of a session's command: its own, below the wrapper; the wrapper's for a wrapper older than the file. */
    static long groupOf(dev.runboard.store.SessionStore store, dev.runboard.session.Session session) {
        Optional<WrappedCommand> command = read(store.file(session.id(), dev.runboard.store.SessionStore.COMMAND));
        return command.isPresent() ? command.get().pid() : session.pid();
    }

    boolean alive(OsProcesses os) {
        return os.isAlive(pid, startTicks);
    }
}
