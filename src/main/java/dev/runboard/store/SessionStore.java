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
import java.util.Map;
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
    /** A kill asked of the session's wrapper: "SIGNAL GRACE_MS WHY REQUESTED_MS", written before the first signal (runboard-wrap.pl). */
    public static final String KILL_REQUEST = "kill-request";
    /** The wrapper's report of the last kill asked of it. */
    public static final String KILL_REPORT = "kill-report";
    /** "PID START_TICKS" of the command, which leads its own process group below the wrapper. */
    public static final String COMMAND = "command";
    /**
     * Disk space set aside for the session's terminal record while it runs: the record is written
     * into it in place and renamed to {@link #RECORD}, so a command that fills the disk cannot leave
     * its session without a record. See {@link #create} and {@link #saveFinal}.
     */
    public static final String RECORD_SPACE = "session.json.reserved";
    /** The wrapper's temp file for {@link #EXIT_STATUS}, set aside the same way: it overwrites it in place. */
    public static final String EXIT_STATUS_SPACE = EXIT_STATUS + ".tmp";
    /** The most of a preview that {@link #RECORD_SPACE} holds room for (a larger preview is dropped from a record that does not fit). */
    static final int MAX_RESERVED_PREVIEW = 256 * 1024;
    /** Room for the record's fixed fields, a kill report and JSON's punctuation. */
    static final int RECORD_OVERHEAD = 16 * 1024;
    static final int EXIT_STATUS_BYTES = 4096;

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
            files.write(file(record.id(), RECORD), Json.writeBytes(record));
        } catch (IOException e) {
            throw new StoreException("could not save session " + record.id(), e);
        }
    }

    /**
     * Creates the folder of a session about to be launched, before anything runs: the folder
     * (0700), the space its terminal record will be written into, the space for its wrapper's exit
     * status, and its empty capture (0600). The command must not be launched when this fails: a
     * disk with no room for the record would leave a session nobody can account for. The folder is
     * removed again on failure.
     *
     * @return the capture file
     */
    public Path create(String id, dev.runboard.session.SessionSpec spec) throws StoreException {
        Path dir = dirOf(id);
        try {
            DataDirs.createPrivateDirectories(dir);
            files.reserve(file(id, RECORD_SPACE), recordSpace(spec));
            files.reserve(file(id, EXIT_STATUS_SPACE), EXIT_STATUS_BYTES);
            return DataDirs.createPrivateFile(file(id, CAPTURE));
        } catch (IOException e) {
            try {
                delete(id, false, null);
            } catch (IOException | RuntimeException ignored) {
                // what is left is an empty folder without a record: loading skips it
            }
            throw new StoreException("could not set aside room for the record of session " + id, e);
        }
    }

    /**
     * Completes the folder of a session whose command bin/runboard launched before this JVM
     * started (the engine's EarlyLaunch): the script made the folder (0700), the capture and the
     * wrapper's status space; this sets aside the record's room, as {@link #create} does. The command
     * already runs, so a failure here cannot keep it from starting: the wrapper ends it when this
     * runboard exits without having written the record.
     *
     * @return the capture file
     */
    public Path completeEarly(String id, dev.runboard.session.SessionSpec spec) throws StoreException {
        Path capture = file(id, CAPTURE);
        try {
            if (!Files.isRegularFile(capture, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("its capture " + capture + " is not there");
            }
            // The script made them with the user's umask (a fork to change it would cost what it saves); the
            // folder is 0700 already, and the files are made private as create makes them.
            for (String name : List.of(CAPTURE, LOCK, EXIT_STATUS_SPACE, RECORD_SPACE, EarlySpec.FILE)) {
                Path p = file(id, name);
                if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) { // the status space: renamed once written
                    DataDirs.makePrivate(p);
                }
            }
            // The script set the record's room aside before it started the command (a full disk refused it
            // there); made again only when that is too small for this spec.
            Path room = file(id, RECORD_SPACE);
            long needed = recordSpace(spec);
            if (!Files.isRegularFile(room, java.nio.file.LinkOption.NOFOLLOW_LINKS) || Files.size(room) < needed) {
                files.reserve(room, needed);
            }
            return capture;
        } catch (IOException e) {
            throw new StoreException("could not set aside room for the record of session " + id, e);
        }
    }

    /**
     * Bytes set aside for a session's terminal record: its preview as base64 (up to
     * {@link #MAX_RESERVED_PREVIEW}), its spec's text at JSON's worst escaping (6 characters for
     * one), and {@link #RECORD_OVERHEAD}; in whole 4 KiB pages. Counted without Jackson, which is
     * still warming up when a session launches.
     */
    /** Room for a Slurm job's facts in its record (Slurm's node names and reasons are short words). */
    private static final int SLURM_FACTS = 512;

    static long recordSpace(dev.runboard.session.SessionSpec spec) {
        long text = spec.displayCommand().length() + spec.cwd().toString().length()
                + (spec.shell() == null ? 0 : spec.shell().toString().length());
        if (spec.argv() != null) {
            for (String a : spec.argv()) {
                text += a.length() + 4;
            }
        }
        for (Map.Entry<String, String> e : spec.env().entrySet()) {
            text += e.getKey().length() + e.getValue().length() + 8;
        }
        for (dev.runboard.session.OutputRule r : spec.watch().rules()) {
            text += r.pattern().length() + 32;
        }
        if (spec.slurm() != null) {
            for (String a : spec.slurm().sbatch()) {
                text += a.length() + 4;
            }
            text += SLURM_FACTS; // the job as Slurm told it: id, node, partition, state, reason
        }
        long bytes = (Math.min(spec.previewBytes(), MAX_RESERVED_PREVIEW) + 2L) / 3 * 4 + 6 * text + RECORD_OVERHEAD;
        return (bytes + 4095) / 4096 * 4096;
    }

    /**
     * Writes a session's terminal record into the space {@link #create} set aside for it, so that it
     * is written even when the session's output filled the disk. A record that does not fit the disk
     * with its preview is written without it (its output stays in the capture or artifact the record
     * names, and its byte count stays), which the reserved space holds. A session without reserved
     * space (started by an older runboard) is written as {@link #save} writes.
     */
    public void saveFinal(SessionRecord record) throws StoreException {
        Path space = file(record.id(), RECORD_SPACE);
        Path target = file(record.id(), RECORD);
        try {
            files.writeInto(space, target, Json.writeBytes(record));
            return;
        } catch (IOException e) {
            if (ArtifactErrorCode.of(e) != ArtifactErrorCode.DISK_FULL || !record.hasPreview()) {
                throw new StoreException("could not save session " + record.id(), e);
            }
        }
        try {
            files.writeInto(space, target, Json.writeBytes(record.withoutPreview()));
        } catch (IOException e) {
            throw new StoreException("could not save session " + record.id(), e);
        }
    }

    /**
     * The session's record, migrated to the current schema and checked; empty when it has none.
     *
     * @throws CorruptRecordException the id is not a session id, or the record is not a valid one
     * @throws NewerRecordException the record was written by a newer runboard
     * @throws IOException it cannot be read, or is not JSON ({@code JacksonException})
     */
    public Optional<SessionRecord> load(String id) throws IOException {
        Optional<byte[]> bytes = recordBytes(id);
        return bytes.isEmpty() ? Optional.empty() : Optional.of(new OwnOutputFiles(this).confine(RecordReader.read(bytes.get(), id)));
    }

    /**
     * As {@link #load}, the preview's bytes left out unread ({@link SessionRecord#withoutPreview}): what a
     * search of every run needs of each. Decoding the previews was half of a {@code runboard grep} over 50
     * small runs.
     */
    public Optional<SessionRecord> loadWithoutPreview(String id) throws IOException {
        Optional<byte[]> bytes = recordBytes(id);
        return bytes.isEmpty() ? Optional.empty()
                : Optional.of(new OwnOutputFiles(this).confine(RecordReader.readWithoutPreview(bytes.get(), id)));
    }

    /** The bytes of the session's record, or empty when it has none (yet, or any more). */
    private Optional<byte[]> recordBytes(String id) throws IOException {
        if (!SessionId.isValid(id)) {
            throw new CorruptRecordException(SessionId.quote(id) + " is not a session id");
        }
        byte[] bytes;
        Path record = file(id, RECORD);
        if (Files.exists(record, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                && !Files.isRegularFile(record, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            // A FIFO would block the reader (JDK 17 cannot open with O_NONBLOCK), a link would be read through.
            throw new CorruptRecordException("its record is not a file runboard wrote (a link, a FIFO or a device); not read");
        }
        try {
            bytes = Files.readAllBytes(record);
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            return Optional.empty();
        }
        return Optional.of(bytes);
    }

    /**
     * A finished session's preview read back from its record, as it was shown when the session
     * ended (for a row that holds only a {@link SessionRecord#previewSummary summary}); from its
     * capture file, within {@code bound}, when the record is gone or no longer readable.
     */
    public dev.runboard.session.OutputPreview previewOf(String id, int bound) throws IOException {
        try {
            Optional<SessionRecord> record = load(id);
            if (record.isPresent() && record.get().status().isTerminal()) {
                return record.get().previewUnpacked();
            }
        } catch (IOException | RuntimeException e) {
            // unreadable now (moved aside, half-copied): the capture still has the bytes
        }
        return dev.runboard.session.OutputPreview.read(file(id, CAPTURE), bound);
    }

    /**
     * Ids of every session folder, oldest first (ids sort by start time); entries whose names are not
     * session ids are left out. A name runboard gave a session is taken for its folder without a stat:
     * a window's follower lists them every poll, which was 10,000 stats a poll with 10,000 sessions.
     */
    public List<String> ids() {
        return names(SessionId::isValid);
    }

    /** {@code sessions/}'s modification time (a folder made or removed changes it), or null when it cannot be read. */
    public java.nio.file.attribute.FileTime sessionsModified() {
        try {
            return Files.getLastModifiedTime(sessionsDir);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The folders of {@code sessions/}, sorted; a name in {@code known} (the rows index's) is taken for
     * a folder without asking: it was one when the index was written, and asking is a stat per session.
     */
    private List<String> folders(java.util.Set<String> known) {
        return names(name -> known.contains(name) || Files.isDirectory(sessionsDir.resolve(name)));
    }

    /** The names in {@code sessions/} that {@code keep} keeps, sorted; none when it cannot be listed. */
    private List<String> names(java.util.function.Predicate<String> keep) {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(sessionsDir)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (keep.test(name)) {
                    names.add(name);
                }
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            return names;
        }
        names.sort(Comparator.naturalOrder());
        return names;
    }

    /**
     * How many sessions the data dir holds, about: the entries of {@code sessions/} named like a
     * session id, counted without reading (or even stat-ing) them. For "Loading 1,000 sessions…".
     */
    public int folderCount() {
        int n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(sessionsDir)) {
            for (Path e : entries) {
                if (SessionId.isValid(e.getFileName().toString())) {
                    n++;
                }
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            return n;
        }
        return n;
    }

    /**
     * Every record, oldest first, with a warning for each folder that could not be read. Records
     * are read and parsed in parallel (a history of 10,000 is most of a core-second of JSON).
     */
    public LoadResult loadAll() {
        return loadAll(Map.of());
    }

    /** As {@link #loadAll()}, taking the record of a folder named in {@code known} from there instead of its file. */
    private LoadResult loadAll(Map<String, SessionRecord> known) {
        List<String> folders = folders(known.keySet());
        // One slot per folder, so the results keep the folders' order whatever thread read them.
        Object[] read = new Object[folders.size()];
        java.util.stream.IntStream.range(0, folders.size()).parallel().forEach(i -> {
            SessionRecord k = known.get(folders.get(i));
            read[i] = k != null ? k : loadOne(folders.get(i));
        });
        List<SessionRecord> records = new ArrayList<>(read.length);
        List<String> warnings = new ArrayList<>();
        for (Object r : read) {
            if (r instanceof SessionRecord record) {
                records.add(record);
            } else if (r instanceof String warning) {
                warnings.add(warning);
            }
        }
        // Ids sort by second only; the start instant orders sessions started within the same second.
        records.sort(Comparator.comparing(SessionRecord::startedAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(SessionRecord::id));
        return new LoadResult(records, warnings);
    }

    /**
     * The history as a window lists it: every record, those of ended sessions without their
     * preview's bytes (see {@link RowIndex}), taken from {@code rows.index} where it has them.
     * {@link Rows#indexStale()} says whether the index should be written again ({@link #saveRows}).
     */
    public Rows loadRows() {
        Map<String, RowIndex.Row> indexed = RowIndex.read(dataDir);
        Map<String, SessionRecord> known = new java.util.HashMap<>(indexed.size() * 2);
        indexed.forEach((id, row) -> known.put(id, row.record()));
        LoadResult result = loadAll(known);
        List<SessionRecord> records = new ArrayList<>(result.records().size());
        Map<String, RowIndex.Row> rows = new java.util.HashMap<>(result.records().size() * 2);
        int fromIndex = 0;
        for (SessionRecord r : result.records()) {
            RowIndex.Row row = indexed.get(r.id());
            if (row != null) {
                fromIndex++;
            } else if (RowIndex.settled(r.status())) {
                row = RowIndex.Row.of(r); // read from its file: its preview's bytes are let go here
            }
            if (row != null) {
                rows.put(r.id(), row);
                records.add(row.record());
            } else {
                records.add(r);
            }
        }
        return new Rows(records, rows, result.warnings(), fromIndex != indexed.size() || fromIndex != rows.size());
    }

    /** The records of {@link #loadRows()}, the rows of its ended sessions by id, its warnings, and whether rows.index is out of date. */
    public record Rows(List<SessionRecord> records, Map<String, RowIndex.Row> rows, List<String> warnings, boolean indexStale) {
    }

    /** Writes these rows as the data dir's {@code rows.index}, for the next window to list them from. */
    public void saveRows(java.util.Collection<RowIndex.Row> rows) throws IOException {
        RowIndex.write(dataDir, files, rows);
    }

    /** The record in folder {@code id}, a warning (String) about it, or null when it has none and that is fine. */
    private Object loadOne(String id) {
        if (!SessionId.isValid(id)) {
            return "the folder " + SessionId.quote(id) + " in " + sessionsDir + " is not a session (its name is not"
                    + " a session id); it is left as it is";
        }
        Path recordFile = file(id, RECORD);
        if (!Files.exists(recordFile)) {
            if (Files.exists(file(id, CAPTURE)) && !Files.exists(file(id, LOCK))) {
                return "session " + id + " has output but no record; its output is kept at " + file(id, CAPTURE);
            }
            return null;
        }
        try {
            return load(id).orElse(null);
        } catch (DatabindException e) {
            // Well-formed JSON with a value of the wrong kind: a string where a number belongs, a rule without a pattern.
            return moveAside(id, recordFile, "is not a valid record (" + oneLine(e.getOriginalMessage()) + ")");
        } catch (JacksonException e) {
            return moveAside(id, recordFile, "is not valid JSON (" + oneLine(e.getOriginalMessage()) + ")");
        } catch (CorruptRecordException e) {
            return moveAside(id, recordFile, "is not a valid record (" + e.getMessage() + ")");
        } catch (NewerRecordException e) {
            return "the record of session " + id + " is skipped: " + e.getMessage();
        } catch (IOException e) {
            return "could not read the record of session " + id + ": " + e.getMessage();
        } catch (RuntimeException e) {
            // A check this store lacks must cost one record, never the whole history.
            return moveAside(id, recordFile, "could not be read (" + e + ")");
        }
    }

    /**
     * Moves a bad record to {@code corrupt/}, next to (never over) the bad records moved there
     * before; one at a time, as {@link #loadAll()} reads records in parallel.
     */
    private synchronized String moveAside(String id, Path recordFile, String why) {
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
    /** Deletes the session's folder (and its artifact when asked); returns how many bytes of files went. */
    public long delete(String id, boolean withArtifact, ArtifactStore artifacts) throws IOException {
        long bytes = 0;
        if (withArtifact && artifacts != null) {
            bytes += sizeOf(artifacts.pathFor(id));
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
                bytes += Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? sizeOf(p) : 0;
                Files.deleteIfExists(p);
            }
        }
        return bytes;
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0; // gone already
        }
    }

    /**
     * The status a kill asked of the session's wrapper is to end it as ({@code killed}, {@code timeout},
     * {@code failed}), whoever asked: empty when none was asked, or the request cannot be read.
     */
    public java.util.Optional<dev.runboard.session.SessionStatus> requestedEnd(String id) {
        try {
            String[] words = Files.readString(file(id, KILL_REQUEST), java.nio.charset.StandardCharsets.ISO_8859_1).strip().split(" ");
            return words.length >= 3 ? java.util.Optional.ofNullable(dev.runboard.session.SessionStatus.fromWord(words[2]))
                    : java.util.Optional.empty();
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
