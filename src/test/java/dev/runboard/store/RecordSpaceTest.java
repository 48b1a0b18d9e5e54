package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.OutputPreview;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionState;
import dev.runboard.session.SessionStatus;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The room a session sets aside for its final record: large enough, used in place, and a record too big for the disk still written. */
class RecordSpaceTest {
    private static final String ID = "20260101-000000-abcdef";

    @TempDir
    Path dataDir;

    private SessionRecord finalRecord(SessionSpec spec, int outputBytes) {
        byte[] output = new byte[outputBytes];
        new Random(7).nextBytes(output); // base64 of any bytes is as long: random ones cannot be packed smaller
        OutputPreview preview = OutputPreview.of(output, spec.previewBytes());
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        SessionOutcome outcome = new SessionOutcome(SessionStatus.FAILED, at.plusSeconds(5), 5, null, "exited with code 5", preview,
                dataDir.resolve("artifacts/" + ID + ".log").toString(), null, null, null);
        return SessionRecord.of(ID, spec, new SessionState.Ended(at, 4242L, 99L, outcome, null, null, java.util.List.of()));
    }

    @Test
    void theRoomHoldsTheFinalRecordWithAFullPreview() throws Exception {
        SessionSpec spec = SessionSpec.shell("make test").cwd(dataDir).env("CI", "1").build();
        byte[] json = Json.mapper().writeValueAsBytes(finalRecord(spec, 10_000_000));
        long room = SessionStore.recordSpace(spec);
        assertTrue(json.length <= room, json.length + " bytes of record, " + room + " set aside");
        assertTrue(room < 2 * json.length, "and not much more: " + room);
        assertEquals(0, room % 4096);
    }

    @Test
    void theRecordIsWrittenIntoTheRoomInPlace() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        SessionSpec spec = SessionSpec.shell("true").cwd(dataDir).build();
        store.create(ID, spec);
        Path space = store.file(ID, SessionStore.RECORD_SPACE);
        Object inode = Files.getAttribute(space, "unix:ino");
        assertEquals(SessionStore.recordSpace(spec), Files.size(space));

        store.saveFinal(finalRecord(spec, 1000));

        Path record = store.file(ID, SessionStore.RECORD);
        assertEquals(inode, Files.getAttribute(record, "unix:ino"), "the reserved file became the record");
        assertFalse(Files.exists(space));
        assertEquals(SessionStatus.FAILED, store.load(ID).orElseThrow().status());
        assertEquals(5, store.load(ID).orElseThrow().exitCode());
    }

    @Test
    void aRecordTooBigForTheDiskIsWrittenWithoutItsPreview() throws Exception {
        // A disk with room for 16 KiB and no more, as the store's seam sees it.
        AtomicFiles full = (target, content) -> {
            if (content.length > 16 * 1024) {
                throw new FileSystemException(target.toString(), null, "No space left on device");
            }
            AtomicFiles.SYSTEM.write(target, content);
        };
        SessionStore store = new SessionStore(dataDir, full);
        SessionSpec spec = SessionSpec.shell("true").cwd(dataDir).build();
        store.create(ID, spec);

        store.saveFinal(finalRecord(spec, 1_000_000));

        SessionRecord saved = store.load(ID).orElseThrow();
        assertEquals(5, saved.exitCode());
        assertEquals(1_000_000, saved.outputBytes(), "how much output there was is kept");
        assertEquals(0, saved.preview().visibleBytes());
        assertTrue(saved.preview().truncated(), "all of it is in the artifact the record names");
        assertEquals(dataDir.resolve("artifacts/" + ID + ".log").toString(), saved.artifact());
    }
}
