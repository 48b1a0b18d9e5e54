package dev.runboard.artifact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streaming line diff: volatile masking, unified output that GNU patch accepts, changes longer than a window. */
class LineDiffTest {
    @TempDir
    Path dir;

    private static final String MAVEN_A = """
            [INFO] Scanning for projects...
            [INFO] Building demo 1.0-SNAPSHOT
            [INFO] Running dev.demo.AppTest
            [INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.352 s - in dev.demo.AppTest
            [INFO] Total time:  4.211 s
            [INFO] Finished at: 2026-12-01T09:41:07+01:00
            java.lang.Object@1b6d3586 took 12ms
            """;
    private static final String MAVEN_B = """
            [INFO] Scanning for projects...
            [INFO] Building demo 1.0-SNAPSHOT
            [INFO] Running dev.demo.AppTest
            [INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1.07 s - in dev.demo.AppTest
            [INFO] Total time:  13.9 s
            [INFO] Finished at: 2026-12-02T17:03:55+01:00
            java.lang.Object@7a81197d took 140 ms
            """;

    @Test
    void mavenLogsDifferingOnlyInTimingsAreEqualWhenIgnoringVolatileText() throws Exception {
        Path a = write("a.log", MAVEN_A);
        Path b = write("b.log", MAVEN_B);
        assertTrue(LineDiff.compare(a, b, true, new UnifiedDiff(OutputStream.nullOutputStream())));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UnifiedDiff diff = new UnifiedDiff(out);
        assertFalse(LineDiff.compare(a, b, false, diff));
        assertArrayEquals(new long[] {4, 4}, diff.firstDifference(), "the first line that differs, exactly");
        String shown = out.toString(StandardCharsets.UTF_8);
        assertTrue(shown.contains("\n-[INFO] Total time:  4.211 s\n") && shown.contains("\n+[INFO] Total time:  13.9 s\n"), shown);
    }

    @Test
    void aRealChangeStillShowsWhenIgnoringVolatileText() throws Exception {
        Path a = write("a.log", MAVEN_A);
        Path b = write("b.log", MAVEN_B.replace("Failures: 0", "Failures: 1").replace("Building", "BUILDING"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UnifiedDiff diff = new UnifiedDiff(out);
        assertFalse(LineDiff.compare(a, b, true, diff));
        assertArrayEquals(new long[] {2, 2}, diff.firstDifference());
    }

    @Test
    void unifiedOutputPatchesTheOldFileIntoTheNewOneEvenAcrossWindows() throws Exception {
        Random random = new Random(18);
        for (int round = 0; round < 4; round++) {
            List<String> a = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                a.add("line " + i + " " + random.nextInt(5));
            }
            List<String> b = new ArrayList<>(a);
            for (int edit = 0; edit < 40; edit++) {
                int at = random.nextInt(b.size());
                switch (random.nextInt(3)) {
                    case 0 -> b.remove(at);
                    case 1 -> b.add(at, "new " + edit);
                    default -> b.set(at, "changed " + edit);
                }
            }
            // A block longer than a window, inserted and removed: alignment must recover.
            int at = random.nextInt(b.size());
            for (int k = 0; k < LineDiff.WINDOW + 700; k++) {
                b.add(at, "block " + k);
            }
            b.subList(1000, 1000 + LineDiff.WINDOW + 300).clear();
            Path fa = write("a" + round, String.join("\n", a) + "\n");
            Path fb = write("b" + round, String.join("\n", b) + (round % 2 == 0 ? "\n" : ""));
            Path patch = dir.resolve("p" + round);
            try (var out = Files.newOutputStream(patch)) {
                UnifiedDiff diff = new UnifiedDiff(out);
                diff.header("a", "b");
                assertFalse(LineDiff.compare(fa, fb, false, diff));
            }
            Process p = new ProcessBuilder("patch", "-s", "-o", dir.resolve("patched" + round).toString(), fa.toString(),
                    patch.toString()).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), said);
            assertEquals(Files.readString(fb), Files.readString(dir.resolve("patched" + round)), "round " + round);
        }
    }

    @Test
    void equalInputsPrintNothingNotEvenTheHeaderAsDiffDoes() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UnifiedDiff diff = new UnifiedDiff(out);
        diff.header("a", "b");
        assertTrue(LineDiff.compare(write("a", "x\ny\n"), write("b", "x\ny\n"), false, diff));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        diff = new UnifiedDiff(out);
        diff.header("a", "b");
        assertFalse(LineDiff.compare(write("c", "x\n"), write("d", "y\n"), false, diff));
        assertEquals("--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void identicalFilesAreTheSameAndAnEmptyFileDiffersFromAFullOne() throws Exception {
        Path a = write("a", "x\ny\n");
        assertTrue(LineDiff.compare(a, write("b", "x\ny\n"), false, new UnifiedDiff(OutputStream.nullOutputStream())));
        assertFalse(LineDiff.compare(a, write("c", "x\ny"), false, new UnifiedDiff(OutputStream.nullOutputStream())),
                "a missing final newline is a difference");
        assertFalse(LineDiff.compare(write("e", ""), a, false, new UnifiedDiff(OutputStream.nullOutputStream())));
    }

    @Test
    void linesLongerThanTheReadBufferCompareByTheirWholeTextAndPrintWhole() throws Exception {
        // 64-byte buffers: these lines cross many reads, as a line of gigabytes crosses the real buffer.
        String longLine = "x".repeat(5000);
        Path a = write("a", "start\n" + longLine + "\n" + "progress 12% took 3ms @deadbeef\r".repeat(300) + "\nsame "
                + "y".repeat(3000) + "\nend");
        Path b = write("b", "start\n" + longLine.substring(1) + "z\n" + "progress 57% took 14 ms @00c0ffee\r".repeat(300)
                + "\nsame " + "y".repeat(3000) + "\nend");
        Path patch = dir.resolve("p");
        try (var out = Files.newOutputStream(patch)) {
            UnifiedDiff diff = new UnifiedDiff(out);
            diff.header("a", "b");
            assertFalse(compareInSmallBuffers(a, b, false, diff));
        }
        Process p = new ProcessBuilder("patch", "-s", "-o", dir.resolve("patched").toString(), a.toString(), patch.toString())
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), said);
        assertEquals(Files.readString(b), Files.readString(dir.resolve("patched")), "long lines printed whole");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UnifiedDiff ignoring = new UnifiedDiff(out);
        assertFalse(compareInSmallBuffers(a, b, true, ignoring), "the last byte of a 5000-byte line still counts");
        assertArrayEquals(new long[] {2, 2}, ignoring.firstDifference());
        List<String> changes = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("-") || l.startsWith("+")).toList();
        assertEquals(2, changes.size(), "the progress line differs only in numbers and addresses, cut anywhere by the reads");
        assertTrue(compareInSmallBuffers(write("digits", "1".repeat(5000) + " s\n"), write("one", "7 s\n"), true,
                new UnifiedDiff(OutputStream.nullOutputStream())), "a long number masks to one token like a short one");
        assertTrue(compareInSmallBuffers(b, write("copy", Files.readString(b)), false, new UnifiedDiff(OutputStream.nullOutputStream())));
    }

    private static boolean compareInSmallBuffers(Path a, Path b, boolean ignoreVolatile, UnifiedDiff diff) throws Exception {
        try (DiffLines left = new DiffLines(a, new VolatileText(ignoreVolatile), 64);
             DiffLines right = new DiffLines(b, new VolatileText(ignoreVolatile), 64)) {
            return LineDiff.compare(left, right, diff);
        }
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }
}
