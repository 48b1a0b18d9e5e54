package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.runboard.session.OutputPreview;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureTailTest {
    private static final int BOUND = 4096;

    @TempDir
    Path dir;

    @Test
    void aGrowingFileReadsAsAFreshPreviewWouldAtEverySize() throws Exception {
        Path file = dir.resolve("capture.log");
        Files.writeString(file, "");
        try (CaptureTail tail = new CaptureTail(file, BOUND)) {
            for (int round = 0; round < 40; round++) {
                StringBuilder more = new StringBuilder();
                for (int i = 0; i < 20; i++) {
                    more.append("round ").append(round).append(" line ").append(i).append(" \u00e9\u4e2d\n");
                }
                Files.writeString(file, more, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                OutputPreview live = tail.read();
                OutputPreview fresh = OutputPreview.read(file, BOUND);
                assertEquals(fresh.originalBytes(), live.originalBytes(), "round " + round);
                assertArrayEquals(fresh.headBytes(), live.headBytes(), "round " + round);
                assertArrayEquals(fresh.tailBytes(), live.tailBytes(), "round " + round);
                assertSame(live, tail.lastRead(), "lastRead gives the last read without reading");
            }
        }
    }

    @Test
    void aFileCutShorterIsReadAgainWhole() throws Exception {
        Path file = dir.resolve("capture.log");
        Files.writeString(file, "x".repeat(3 * BOUND) + "\nend\n");
        try (CaptureTail tail = new CaptureTail(file, BOUND)) {
            tail.read();
            Files.writeString(file, "short\n");
            assertEquals("short\n", tail.read().text());
        }
    }
}
