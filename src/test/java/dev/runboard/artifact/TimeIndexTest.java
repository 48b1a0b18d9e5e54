package dev.runboard.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The time index file: entries only when the capture grew, a line's time, a torn last entry. */
class TimeIndexTest {
    @TempDir
    Path dir;

    private void append(Path file, String text) throws Exception {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void aLineTakesTheTimeOfTheFirstEntryPastItsStart() throws Exception {
        Path capture = dir.resolve("capture.log");
        append(capture, "");
        try (TimeIndexWriter w = new TimeIndexWriter(capture)) {
            assertFalse(w.sample(1_000), "nothing written yet: no entry");
            append(capture, "one\ntwo\n"); // lines at 0 and 4
            assertTrue(w.sample(2_000));
            assertFalse(w.sample(2_500), "no growth: no entry");
            append(capture, "three\n"); // at 8
            assertTrue(w.sample(3_000));
        }
        TimeIndex index = TimeIndex.read(capture);
        assertEquals(2, index.entries());
        assertEquals(2_000, index.timeOf(0));
        assertEquals(2_000, index.timeOf(4));
        assertEquals(3_000, index.timeOf(8));
        assertEquals(-1, index.timeOf(14), "past the index: unknown");
        assertEquals(14, index.covered());
    }

    @Test
    void aTornLastEntryIsIgnoredAndCutBeforeTheNextOwnerAppends() throws Exception {
        Path capture = dir.resolve("capture.log");
        append(capture, "a\n");
        try (TimeIndexWriter w = new TimeIndexWriter(capture)) {
            w.sample(5_000);
        }
        Files.write(TimeIndex.fileFor(capture), new byte[] {1, 2, 3}, StandardOpenOption.APPEND); // the owner died mid-write
        assertEquals(1, TimeIndex.read(capture).entries());
        append(capture, "b\n");
        try (TimeIndexWriter w = new TimeIndexWriter(capture)) { // adopted: the index continues
            w.sample(6_000);
        }
        TimeIndex index = TimeIndex.read(capture);
        assertEquals(2, index.entries());
        assertEquals(6_000, index.timeOf(2));
        assertTrue(TimeIndex.read(dir.resolve("none.log")).isEmpty());
    }
}
