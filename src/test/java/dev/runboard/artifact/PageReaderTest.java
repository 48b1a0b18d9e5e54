package dev.runboard.artifact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The viewer's file logic without a window: pages by offset, the sparse index, the byte search. */
class PageReaderTest {
    @TempDir
    Path dir;

    private Path numbered(int n, String lastWithoutNewline) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            sb.append("line ").append(i).append(i % 7 == 0 ? "\r\n" : "\n");
        }
        if (lastWithoutNewline != null) {
            sb.append(lastWithoutNewline);
        }
        return Files.writeString(dir.resolve("out.log"), sb);
    }

    private static LineIndex indexed(Path file) {
        LineIndex index = new LineIndex(file, () -> false);
        index.run();
        return index;
    }

    private static List<String> texts(PageReader.Page p) {
        return p.lines().stream().map(ViewerLine::text).toList();
    }

    @Test
    void topEndScrollAndGoToLineWithNumbers() throws Exception {
        Path file = numbered(100_000, "\u001B[32mlast\u001B[0m");
        try (ArtifactFile f = new ArtifactFile(file)) {
            LineIndex index = indexed(file);
            PageReader r = new PageReader(f, index);
            assertEquals(100_001, r.totalLines());
            assertTrue(index.checkpoints() > 90, "a checkpoint every " + LineIndex.EVERY_LINES + " lines");

            PageReader.Page top = r.top(10);
            assertEquals(List.of("line 1", "line 2"), texts(top).subList(0, 2));
            assertEquals(0, top.number());

            PageReader.Page end = r.end(10);
            assertEquals("\u001B[32mlast\u001B[0m", texts(end).get(9));
            assertEquals("line 99992", texts(end).get(0));
            assertEquals(99_991, end.number());
            assertEquals("line 99997", texts(end).get(5), "CR before LF is not shown");

            PageReader.Page down = r.scroll(top.anchor(), 5, 10);
            assertEquals("line 6", texts(down).get(0));
            assertEquals("line 3", texts(r.scroll(down.anchor(), -3, 10)).get(0));
            assertEquals(end.anchor(), r.scroll(top.anchor(), 1_000_000, 10).anchor(), "scrolling stops at the last page");

            PageReader.Page at = r.line(54_321, 9);
            assertEquals("line 54322", texts(at).get(at.focusRow()));
            assertEquals(54_321, at.lines().get(at.focusRow()).number());
            assertNull(r.line(200_000, 9));
        }
    }

    @Test
    void endWorksBeforeTheIndexAndNumbersAreUnknownThere() throws Exception {
        Path file = numbered(5_000, null);
        try (ArtifactFile f = new ArtifactFile(file)) {
            PageReader r = new PageReader(f, new LineIndex(file, () -> false)); // never run
            PageReader.Page end = r.end(4);
            assertEquals(List.of("line 4997", "line 4998", "line 4999", "line 5000"), texts(end));
            assertEquals(-1, end.number());
            assertEquals(0, r.top(4).number());
        }
    }

    @Test
    void aTenMegabyteLineIsCutWithTheRestCounted() throws Exception {
        byte[] big = "x".repeat(10 << 20).getBytes(StandardCharsets.US_ASCII);
        Path file = dir.resolve("long.log");
        Files.write(file, ("before\n" + new String(big, StandardCharsets.US_ASCII) + "\nafter\n").getBytes(StandardCharsets.US_ASCII));
        try (ArtifactFile f = new ArtifactFile(file)) {
            PageReader r = new PageReader(f, indexed(file));
            PageReader.Page p = r.top(5);
            assertEquals(3, p.lines().size());
            ViewerLine cut = p.lines().get(1);
            assertEquals(ArtifactFile.LINE_LIMIT, cut.text().length());
            assertEquals((10 << 20) - ArtifactFile.LINE_LIMIT, cut.cutBytes());
            assertEquals("after", p.lines().get(2).text());
            assertEquals(2, p.lines().get(2).number());
        }
    }

    @Test
    void invalidUtf8ShowsAsReplacementCharacters() throws Exception {
        Path file = dir.resolve("bad.log");
        Files.write(file, new byte[] {'o', 'k', (byte) 0xC3, '(', '\n', (byte) 0xE2, (byte) 0x94, (byte) 0x80, '\n'});
        try (ArtifactFile f = new ArtifactFile(file)) {
            List<String> t = texts(new PageReader(f, indexed(file)).top(5));
            assertEquals(List.of("ok\uFFFD(", "\u2500"), t);
        }
    }

    @Test
    void searchCountsLiteralRegexAndCaseInsensitiveMatchesAtByteOffsets() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 300_000; i++) {
            sb.append(i % 1000 == 0 ? "ERROR code " + i + " \u00E9t\u00E9\n" : "info step " + i + "\n");
        }
        Path file = Files.writeString(dir.resolve("s.log"), sb);
        assertEquals(300, count(file, "ERROR", true));
        assertEquals(300, count(file, "ERROR code \\d+", true));
        assertEquals(299, count(file, "ERROR code \\d+000 ", true));
        assertEquals(300, count(file, "error", false));
        assertEquals(0, count(file, "error", true));
        assertEquals(300, count(file, "\u00E9t\u00E9", true));
        assertEquals(300, count(file, "\u00C9T\u00C9", false));
        assertEquals(300, count(file, "^ERROR", true));
        FileSearch.Result r = new FileSearch(new FileSearch.Query("code 1000 ", true)).run(file, noProgress());
        assertEquals(1, r.count());
        String text = Files.readString(file);
        long expected = text.substring(0, text.indexOf("ERROR code 1000 ")).getBytes(StandardCharsets.UTF_8).length + 6;
        assertArrayEquals(new long[] {expected}, r.offsets());
    }

    @Test
    void requiredLiteralIsConservative() {
        assertEquals("ERROR code ", FileSearch.requiredLiteral("ERROR code \\d+"));
        assertEquals("timeout after ", FileSearch.requiredLiteral("timeout after [0-9]+ ms?"));
        assertNull(FileSearch.requiredLiteral("foo|bar"));
        assertEquals("ab", FileSearch.requiredLiteral("(x)?abc?"));
        assertNull(FileSearch.requiredLiteral("\\d+"));
    }

    private static long count(Path file, String q, boolean cs) throws Exception {
        return new FileSearch(new FileSearch.Query(q, cs)).run(file, noProgress()).count();
    }

    private static FileSearch.Progress noProgress() {
        return new FileSearch.Progress() {
            @Override
            public void update(long scanned, long size, long matches) {
            }

            @Override
            public boolean cancelled() {
                return false;
            }
        };
    }
}
