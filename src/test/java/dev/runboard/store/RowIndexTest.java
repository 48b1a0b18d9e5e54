package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.OutputPreview;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionState;
import dev.runboard.session.SessionStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rows.index: a window lists ended sessions from it, without their records; it never answers for
 * a session whose folder is gone, one it does not have, or an {@code unknown} one; and an index
 * that is not whole is ignored (the records say the same).
 */
class RowIndexTest {
    @TempDir
    Path dataDir;

    @Test
    void endedSessionsAreListedFromTheIndexOnceItIsWritten() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        for (int i = 0; i < 5; i++) {
            save(store, i, SessionStatus.COMPLETED, "── done ✓ " + i + " ──\n");
        }
        SessionStore.Rows first = store.loadRows();
        assertTrue(first.indexStale(), "no index yet");
        assertEquals(5, first.rows().size());
        store.saveRows(first.rows().values());

        // The index now answers: a record made unreadable is not even read.
        Files.writeString(store.file(id(2), SessionStore.RECORD), "not json");
        SessionStore.Rows second = store.loadRows();
        assertFalse(second.indexStale(), "the index covers every session");
        assertEquals(List.of(id(0), id(1), id(2), id(3), id(4)), second.records().stream().map(SessionRecord::id).toList());
        RowIndex.Row row = second.rows().get(id(2));
        assertEquals("── done ✓ 2 ──", row.lastLine());
        assertEquals("", row.record().outputHead(), "a row holds none of the preview's bytes");
        assertEquals(SessionStatus.COMPLETED, row.record().status());
        assertEquals("run 2", row.record().spec().command());
        assertEquals(("out\n── done ✓ 2 ──\n").getBytes(StandardCharsets.UTF_8).length, row.record().outputBytes());
        // Its bytes come back from the capture when the record cannot be read.
        assertEquals("out\n── done ✓ 2 ──\n", store.previewOf(id(2), 65_536).text());
    }

    /** A row names its output files as its record does: one pointing outside the data dir is not passed on, as a record's is not. */
    @Test
    void aRowWhoseCaptureFileIsOutsideTheDataDirNamesNoFile(@TempDir Path elsewhere) throws Exception {
        SessionStore store = new SessionStore(dataDir);
        save(store, 0, SessionStatus.COMPLETED, "── done 0 ──\n");
        save(store, 1, SessionStatus.COMPLETED, "── done 1 ──\n");
        store.saveRows(store.loadRows().rows().values());
        String own = store.file(id(1), SessionStore.CAPTURE).toString();
        Path index = dataDir.resolve(RowIndex.FILE);
        String secret = elsewhere.resolve("secret.txt").toString();
        Files.writeString(index, Files.readString(index).replace(own, secret));

        SessionStore.Rows rows = store.loadRows();
        assertFalse(rows.indexStale(), "the index still answers");
        SessionRecord edited = rows.rows().get(id(1)).record();
        assertEquals(null, edited.captureFile());
        assertEquals(OwnOutputFiles.OUTSIDE_DATA_DIR, edited.artifactErrorCode());
        assertTrue(edited.artifactError().contains(secret + ", outside its place in the data dir"), edited.artifactError());
        assertEquals(store.file(id(0), SessionStore.CAPTURE).toString(), rows.rows().get(id(0)).record().captureFile());
    }

    @Test
    void theIndexNeverAnswersForARemovedANewOrAnUnknownSession() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        save(store, 0, SessionStatus.COMPLETED, "zero\n");
        save(store, 1, SessionStatus.FAILED, "one\n");
        save(store, 2, SessionStatus.UNKNOWN, "two\n");
        SessionStore.Rows first = store.loadRows();
        assertEquals(java.util.Set.of(id(0), id(1)), first.rows().keySet(), "an unknown session may still end for real: not a row");
        store.saveRows(first.rows().values());

        store.delete(id(1), false, null);
        save(store, 3, SessionStatus.KILLED, "three\n");
        SessionStore.Rows second = store.loadRows();
        assertEquals(List.of(id(0), id(2), id(3)), second.records().stream().map(SessionRecord::id).toList());
        assertEquals(java.util.Set.of(id(0), id(3)), second.rows().keySet());
        assertEquals(SessionStatus.UNKNOWN, second.records().get(1).status(), "read from its record");
        assertTrue(second.indexStale(), "a session left and one came: the index is written again");
    }

    @Test
    void anIndexCutShortOrOfAnotherLayoutIsIgnored() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        for (int i = 0; i < 3; i++) {
            save(store, i, SessionStatus.COMPLETED, "line " + i + "\n");
        }
        store.saveRows(store.loadRows().rows().values());
        Path index = dataDir.resolve(RowIndex.FILE);
        byte[] whole = Files.readAllBytes(index);

        Files.write(index, java.util.Arrays.copyOf(whole, whole.length - 10));
        SessionStore.Rows cut = store.loadRows();
        assertTrue(cut.indexStale());
        assertEquals(3, cut.rows().size(), "the records said the same");
        assertEquals("line 1", cut.rows().get(id(1)).lastLine());

        Files.writeString(index, "runboard-rows-index 99\n");
        assertTrue(store.loadRows().indexStale());
    }

    /**
     * A finished Slurm session listed from the index keeps its job's facts (issue 44: the window's finished
     * Slurm rows lacked them) and its target, as its record has them.
     */
    @Test
    void aFinishedSlurmSessionsRowKeepsItsSlurmFacts() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        dev.runboard.session.SlurmJob job = new dev.runboard.session.SlurmJob("4711", "node-7", "debug", "COMPLETED", null);
        dev.runboard.session.SlurmJob cancelled = new dev.runboard.session.SlurmJob("4712", null, "debug", "CANCELLED",
                "cancelled before it started");
        saveSlurm(store, 0, SessionStatus.COMPLETED, job);
        saveSlurm(store, 1, SessionStatus.KILLED, cancelled);
        store.saveRows(store.loadRows().rows().values());

        SessionStore.Rows fromIndex = store.loadRows();
        assertFalse(fromIndex.indexStale(), "the rows come from the index");
        assertEquals(job, fromIndex.rows().get(id(0)).record().slurm());
        assertEquals(cancelled, fromIndex.rows().get(id(1)).record().slurm());
        assertEquals(new dev.runboard.session.SlurmTarget(List.of("--partition=debug")),
                fromIndex.rows().get(id(0)).record().spec().toSpec().slurm());
        assertEquals(store.load(id(0)).orElseThrow().withoutPreview(), fromIndex.rows().get(id(0)).record(),
                "the row's record is its record without the preview's bytes");
    }

    private void saveSlurm(SessionStore store, int i, SessionStatus status, dev.runboard.session.SlurmJob job) throws Exception {
        String id = id(i);
        SessionSpec spec = SessionSpec.shell("run " + i).cwd(dataDir)
                .slurm(new dev.runboard.session.SlurmTarget(List.of("--partition=debug"))).build();
        DataDirs.createPrivateDirectories(store.dirOf(id));
        Path capture = store.file(id, SessionStore.CAPTURE);
        byte[] bytes = ("job " + i + "\n").getBytes(StandardCharsets.UTF_8);
        Files.write(capture, bytes);
        Instant started = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * i);
        SessionOutcome outcome = new SessionOutcome(status, started.plusSeconds(3), status == SessionStatus.COMPLETED ? 0 : null,
                null, null, OutputPreview.of(bytes, spec.previewBytes()), null, null, null, capture.toString());
        store.save(SessionRecord.of(id, spec, new SessionState.Ended(started, 1000L + i, 1L, outcome, null, null, List.of()))
                .withSlurm(job));
    }

    private static String id(int i) {
        return String.format("20260101-%06d-%06x", i, i);
    }

    private void save(SessionStore store, int i, SessionStatus status, String output) throws Exception {
        byte[] bytes = ("out\n" + output).getBytes(StandardCharsets.UTF_8);
        if (!output.startsWith("──")) {
            bytes = output.getBytes(StandardCharsets.UTF_8);
        }
        String id = id(i);
        SessionSpec spec = SessionSpec.shell("run " + i).cwd(dataDir).build();
        DataDirs.createPrivateDirectories(store.dirOf(id));
        Path capture = store.file(id, SessionStore.CAPTURE);
        Files.write(capture, bytes);
        Instant started = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * i);
        SessionOutcome outcome = new SessionOutcome(status, started.plusSeconds(3), status == SessionStatus.COMPLETED ? 0 : 1, null,
                null, OutputPreview.of(bytes, spec.previewBytes()), null, null, null, capture.toString());
        store.save(SessionRecord.of(id, spec, new SessionState.Ended(started, 1000L + i, 1L, outcome, null, null, List.of())));
    }
}
