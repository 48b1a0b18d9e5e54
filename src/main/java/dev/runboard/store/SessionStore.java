package dev.runboard.store;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DatabindException;
import dev.runboard.session.SessionId;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Session history on disk: one folder per session under {@code sessions/}, holding its record
 * ({@code session.json}, written atomically), its live capture, the wrapper's exit status, the
 * manager's lock and any kill request. A record that cannot be used (not JSON, or JSON that is not
 * a valid record: see {@link RecordReader}) is moved to {@code corrupt/} with one warning; every
 * other record still loads. Bad data never stops anything.
 */
public final class SessionStore {
    public static final String RECORD = "session.json";
    public static final String CAPTURE = "capture.log";
    public static final String EXIT_STATUS = "exit-status";
    public static final String LOCK = "lock";
    public static final String KILL_REQUEST = "kill-request";

    private final Path dataDir;
    private final Path sessionsDir;
    private final AtomicFiles files;

    public SessionStore(Path dataDir, AtomicFiles files) {
        this.dataDir = dataDir;
        this.sessionsDir = dataDir.resolve("sessions");
        this.files = files;
    }

    public SessionStore(Path dataDir) {
        this(dataDir, AtomicFiles.SYSTEM);
    }

    /** The records that loaded, oldest first, and one warning per record that did not. */
    public record LoadResult(List<SessionRecord> records, List<String> warnings) {
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path sessionsDir() {
        return sessionsDir;
    }

    /** The session's folder; the id must be a plain {@link SessionId} (so it can never name a path outside {@code sessions/}). */
    public Path dirOf(String id) {
        return sessionsDir.resolve(SessionId.require(id));
    }

    public Path file(String id, String name) {
        return dirOf(id).resolve(name);
    }

    public void save(SessionRecord record) throws StoreException {
        try {
            DataDirs.createPrivateDirectories(dirOf(record.id()));
            files.write(file(record.id(), RECORD), Json.mapper().writeValueAsBytes(record));
        } catch (IOException e) {
            throw new StoreException("could not save session " + record.id(), e);
        }
    }

    /**
     * Creates the folder of a session about to be launched (0700) and its empty capture (0600),
     * whatever the umask, before anything runs.
     *
     * @return the capture file
     */
    public Path create(String id) throws IOException {
        DataDirs.createPrivateDirectories(dirOf(id));
        return DataDirs.createPrivateFile(file(id, CAPTURE));
    }

    /**
     * The session's record, migrated to the current schema and checked; empty when it has none.
     *
     * @throws CorruptRecordException the id is not a session id, or the record is not a valid one
     * @throws NewerRecordException the record was written by a newer runboard
     * @throws IOException it cannot be read, or is not JSON ({@code JacksonException})
     */
    public Optional<SessionRecord> load(String id) throws IOException {
        if (!SessionId.isValid(id)) {
            throw new CorruptRecordException(SessionId.quote(id) + " is not a session id");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file(id, RECORD));
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            return Optional.empty();
        }
        return Optional.of(RecordReader.read(bytes, id));
    }

    /** Ids of every session folder, oldest first (ids sort by start time); folders whose names are not session ids are left out. */
    public List<String> ids() {
        List<String> ids = new ArrayList<>(folders());
        ids.removeIf(id -> !SessionId.isValid(id));
        return ids;
    }

    private List<String> folders() {
        List<String> names = new ArrayList<>();
        if (!Files.isDirectory(sessionsDir)) {
            return names;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(sessionsDir, Files::isDirectory)) {
            dirs.forEach(d -> names.add(d.getFileName().toString()));
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            return names;
        }
        names.sort(Comparator.naturalOrder());
        return names;
    }

    public LoadResult loadAll() {
        List<SessionRecord> records = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (String id : folders()) {
            if (!SessionId.isValid(id)) {
                warnings.add("the folder " + SessionId.quote(id) + " in " + sessionsDir + " is not a session (its name is not"
                        + " a session id); it is left as it is");
                continue;
            }
            Path recordFile = file(id, RECORD);
            if (!Files.exists(recordFile)) {
                if (Files.exists(file(id, CAPTURE)) && !Files.exists(file(id, LOCK))) {
                    warnings.add("session " + id + " has output but no record; its output is kept at " + file(id, CAPTURE));
                }
                continue;
            }
            try {
                load(id).ifPresent(records::add);
            } catch (DatabindException e) {
                // Well-formed JSON with a value of the wrong kind: a string where a number belongs, a rule without a pattern.
                warnings.add(moveAside(id, recordFile, "is not a valid record (" + oneLine(e.getOriginalMessage()) + ")"));
            } catch (JacksonException e) {
                warnings.add(moveAside(id, recordFile, "is not valid JSON (" + oneLine(e.getOriginalMessage()) + ")"));
            } catch (CorruptRecordException e) {
                warnings.add(moveAside(id, recordFile, "is not a valid record (" + e.getMessage() + ")"));
            } catch (NewerRecordException e) {
                warnings.add("the record of session " + id + " is skipped: " + e.getMessage());
            } catch (IOException e) {
                warnings.add("could not read the record of session " + id + ": " + e.getMessage());
            } catch (RuntimeException e) {
                // A check this store lacks must cost one record, never the whole history.
                warnings.add(moveAside(id, recordFile, "could not be read (" + e + ")"));
            }
        }
        // Ids sort by second only; the start instant orders sessions started within the same second.
        records.sort(Comparator.comparing(SessionRecord::startedAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(SessionRecord::id));
        return new LoadResult(records, warnings);
    }

    /** Moves a bad record to {@code corrupt/}, next to (never over) the bad records moved there before. */
    private String moveAside(String id, Path recordFile, String why) {
        Path corruptDir = dataDir.resolve("corrupt");
        try {
            DataDirs.createPrivateDirectories(corruptDir);
            Path corrupt = corruptDir.resolve(id + "-" + RECORD);
            for (int n = 2; Files.exists(corrupt, java.nio.file.LinkOption.NOFOLLOW_LINKS); n++) {
                corrupt = corruptDir.resolve(id + "-" + n + "-" + RECORD);
            }
            Files.move(recordFile, corrupt);
            return "the record of session " + id + " " + why + "; it was moved to " + corrupt;
        } catch (IOException e) {
            return "the record of session " + id + " " + why + " and could not be moved aside: " + e.getMessage();
        }
    }

    private static String oneLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }

    /** Deletes a session's folder, and its artifact when asked. */
    public void delete(String id, boolean withArtifact, ArtifactStore artifacts) throws IOException {
        if (withArtifact) {
            artifacts.delete(id);
        }
        Path dir = dirOf(id);
        if (Files.isDirectory(dir)) {
            List<Path> files;
            try (var walk = Files.walk(dir)) {
                files = walk.sorted(Comparator.reverseOrder()).toList();
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause(); // e.g. deleted by someone else meanwhile: say so as an I/O error
            }
            for (Path p : files) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Leaves a note for the session's manager that the session was killed on purpose (by another runboard). */
    public void requestKill(String id, String reason) throws StoreException {
        try {
            files.write(file(id, KILL_REQUEST), (reason + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new StoreException("could not record the kill request of " + id, e);
        }
    }

    public boolean killRequested(String id) {
        return Files.exists(file(id, KILL_REQUEST));
    }
}
