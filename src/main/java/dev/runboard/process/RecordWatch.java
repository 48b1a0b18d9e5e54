package dev.runboard.process;

import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reading the records another process writes, as often as every poll: a record (which carries the
 * whole preview) is re-read only when its file changed, and a record being replaced or corrupt
 * reads as absent rather than failing the poll.
 */
final class RecordWatch {
    private final SessionStore store;
    /** Each watched record as last seen: its modification time and size. */
    private final Map<String, String> stamps = new ConcurrentHashMap<>();

    RecordWatch(SessionStore store) {
        this.store = store;
    }

    /** Whether the session's record changed since the last call for it (true the first time). */
    boolean changed(String id) {
        try {
            // Size too: on a file system with coarse timestamps two writes can share one mtime.
            Path file = store.file(id, SessionStore.RECORD);
            String now = Files.getLastModifiedTime(file) + "/" + Files.size(file);
            return !now.equals(stamps.put(id, now));
        } catch (IOException e) {
            return true; // let the read say what is wrong
        }
    }

    /** The record, or empty when it is missing, half-written by its owner or corrupt (the owner's load says which). */
    Optional<SessionRecord> read(String id) {
        try {
            return store.load(id);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    void forget(String id) {
        stamps.remove(id);
    }
}
