package dev.runboard.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The newline counts a grep's line numbers and the viewer's index rest on, against counting byte by byte. */
class NewlinesTest {
    @TempDir
    Path dir;

    @Test
    void countsFindsAndFindsLastAtEveryBoundaryOfTheWords() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            byte[] b = new byte[random.nextInt(100)];
            for (int i = 0; i < b.length; i++) {
                // newlines dense or sparse, and bytes that differ from '\n' in one bit (0x0B, 0x8A) or are 0x80+
                int pick = random.nextInt(round % 2 == 0 ? 4 : 40);
                b[i] = (byte) (pick == 0 ? '\n' : pick == 1 ? 0x8A : pick == 2 ? 0x0B : random.nextInt(256));
            }
            for (int from = 0; from <= b.length; from++) {
                for (int to = from; to <= b.length; to++) {
                    String what = "round " + round + " [" + from + ", " + to + ")";
                    assertEquals(naiveCount(b, from, to), Newlines.count(b, from, to), what);
                    assertEquals(naiveIndex(b, from, to), Newlines.indexOf(b, from, to), what);
                    assertEquals(naiveLast(b, from, to), Newlines.lastIndexOf(b, from, to), what);
                }
            }
        }
    }

    @Test
    void aLongRangeCountsTheSameStreamedAsThroughThePages() throws Exception {
        // More than the page cache holds, so ArtifactFile streams it; a range inside one page goes through the pages.
        byte[] bytes = new byte[ArtifactFile.STREAMED * 2 + 12345];
        Random random = new Random(11);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (random.nextInt(60) == 0 ? '\n' : 'a' + random.nextInt(26));
        }
        Path file = Files.write(dir.resolve("out.log"), bytes);
        try (ArtifactFile f = new ArtifactFile(file)) {
            for (long[] range : new long[][] {{0, bytes.length}, {1, bytes.length - 1}, {12345, ArtifactFile.STREAMED + 12346L},
                    {0, ArtifactFile.STREAMED}, {100, 5000}, {bytes.length - 10, bytes.length + 100L}}) {
                long to = Math.min(range[1], bytes.length);
                assertEquals(naiveCount(bytes, (int) range[0], (int) to), f.countNewlines(range[0], range[1]),
                        "[" + range[0] + ", " + range[1] + ")");
            }
        }
    }

    private static int naiveCount(byte[] b, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            n += b[i] == '\n' ? 1 : 0;
        }
        return n;
    }

    private static int naiveIndex(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int naiveLast(byte[] b, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
