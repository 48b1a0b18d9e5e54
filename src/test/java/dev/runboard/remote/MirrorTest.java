package dev.runboard.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mirror keeps each byte once whichever source (the session's stream, which writes the file itself, or the poll) brings it, and in order. */
class MirrorTest {
    @TempDir
    Path dir;

    private static InputStream bytes(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void overlappingBytesAreKeptOnceAndAGapIsRefused() throws Exception {
        Path capture = dir.resolve("out");
        Mirror m = new Mirror(capture);
        byte[] buffer = new byte[4];
        assertTrue(m.appendAt(0, bytes("abcdef"), 6, buffer));
        assertTrue(m.appendAt(3, bytes("defghi"), 6, buffer), "the known part of a frame is dropped, the rest kept");
        InputStream afterGap = bytes("xyz!");
        assertFalse(m.appendAt(12, afterGap, 3, buffer), "bytes past a gap are refused (the source must ask again)");
        assertEquals('!', afterGap.read(), "and read from the stream all the same, so the next frame lines up");
        long from = m.startPoll();
        assertEquals(9, from);
        assertTrue(m.appendAt(9, bytes("jk"), 2, buffer)); // the stream got there first
        m.append(bytes("jklm"), 4, buffer); // the poll's answer, from byte 9
        m.close();
        assertEquals("abcdefghijklm", Files.readString(capture));
        Mirror again = new Mirror(capture);
        assertEquals(13, again.size(), "a new owner continues from the local end");
        // The session's stream (ssh) appends to the file itself: the poll that follows asks from the file's end.
        Files.writeString(capture, "nop", java.nio.file.StandardOpenOption.APPEND);
        assertEquals(16, again.startPoll());
        again.append(bytes("qr"), 2, buffer);
        again.close();
        assertEquals("abcdefghijklmnopqr", Files.readString(capture));
    }
}
