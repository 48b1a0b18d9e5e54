package dev.runboard.store;

import com.fasterxml.jackson.core.JacksonException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Session history on disk: one folder per session under {@code sessions/}, holding its record
 * ({@code session.json}, written atomically), its live capture, the wrapper's exit status, the
 * manager's lock and any kill request. A record that cannot be read is moved to {@code corrupt/}
 * with a warning; every other record still loads.
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

    public Path dirOf(String id) {
        return sessionsDir.resolve(id);
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

    public Optional<SessionRecord> load(String id) throws IOException {
        try {
            return Optional.of(Json.mapper().readValue(file(id, RECORD).toFile(), SessionRecord.class));
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /** Ids of every session folder, oldest first (ids sort by start time). */
    public List<String> ids() {
        List<String> ids = new ArrayList<>();
        if (!Files.isDirectory(sessionsDir)) {
            return ids;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(sessionsDir, Files::isDirectory)) {
            dirs.forEach(d -> ids.add(d.getFileName().toString()));
        } catch (IOException e) {
            return ids;
        }
        ids.sort(Comparator.naturalOrder());
        return ids;
    }

    public LoadResult loadAll() {
        List<SessionRecord> records = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (String id : ids()) {
            Path recordFile = file(id, RECORD);
            if (!Files.exists(recordFile)) {
                if (Files.exists(file(id, CAPTURE)) && !Files.exists(file(id, LOCK))) {
                    warnings.add("session " + id + " has output but no record; its output is kept at " + file(id, CAPTURE));
                }
                continue;
            }
            try {
                load(id).ifPresent(records::add);
            } catch (JacksonException e) {
                warnings.add(moveAside(id, recordFile, "is not valid JSON (" + e.getOriginalMessage() + ")"));
            } catch (IOException e) {
                warnings.add("could not read the record of session " + id + ": " + e.getMessage());
            }
        }
        // Ids sort by second only; the start instant orders sessions started within the same second.
        records.sort(Comparator.comparing(SessionRecord::startedAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(SessionRecord::id));
        return new LoadResult(records, warnings);
    }

    private String moveAside(String id, Path recordFile, String why) {
        Path corrupt = dataDir.resolve("corrupt").resolve(id + "-" + RECORD);
        try {
            DataDirs.createPrivateDirectories(corrupt.getParent());
            Files.move(recordFile, corrupt, StandardCopyOption.REPLACE_EXISTING);
            return "the record of session " + id + " " + why + "; it was moved to " + corrupt;
        } catch (IOException e) {
            return "the record of session " + id + " " + why + " and could not be moved aside: " + e.getMessage();
        }
    }

    /** Deletes a session's folder, and its artifact when asked. */
    public void delete(String id, boolean withArtifact, ArtifactStore artifacts) throws IOException {
        if (withArtifact) {
            artifacts.delete(id);
        }
        Path dir = dirOf(id);
        if (Files.isDirectory(dir)) {
            try (var walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
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
