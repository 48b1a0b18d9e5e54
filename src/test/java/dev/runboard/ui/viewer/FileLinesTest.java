package dev.runboard.ui.viewer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileLinesTest {
    @TempDir
    Path dir;

    @Test
    void readsAnyLineOfALargeFileThroughTheSparseIndex() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 10_000; i++) {
            sb.append("line ").append(i).append(i % 7 == 0 ? "\r\n" : "\n");
        }
        sb.append("\u001B[32mlast\u001B[0m"); // no final newline, with colour
        Path file = Files.writeString(dir.resolve("out.log"), sb);
        try (FileLines lines = FileLines.index(file, p -> { })) {
            assertEquals(10_001, lines.size());
            assertEquals("line 1", lines.get(0));
            assertEquals("line 7", lines.get(6));
            assertEquals("line 64", lines.get(63));
            assertEquals("line 65", lines.get(64));
            assertEquals("line 10000", lines.get(9_999));
            assertEquals("last", lines.get(10_000));
        }
    }

    @Test
    void emptyFileHasNoLines() throws Exception {
        try (FileLines lines = FileLines.index(Files.createFile(dir.resolve("empty")), p -> { })) {
            assertEquals(0, lines.size());
        }
    }
}
