package dev.runboard.artifact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.testing.Stress;
import dev.runboard.testing.TestScale;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The literal fast path of the search: raw bytes, pieces that overlap, ASCII case folding. */
class LiteralScanTest {
    @TempDir
    Path dir;

    private static final int[] PIECES = {1, 2, 5, 7, 16, 17, 31, 64, 1000, LiteralScan.PIECE};

    @Test
    void matchesAcrossPieceBoundariesAtStartAndEndLikeIndexOf() throws Exception {
        // no final newline: the last match ends at the file's last byte
        Path file = write("ERROR at start\nxxERRORyyERROR\nERRORERROR\nERRERROR ERR\nend ERROR");
        for (int piece : PIECES) {
            long[] got = scan(file, "ERROR", false, piece);
            assertArrayEquals(reference(file, "ERROR", false), got, "piece " + piece);
            assertEquals(0, got[0]);
            assertEquals(Files.size(file) - 5, got[got.length - 1]);
            assertEquals(7, got.length);
        }
    }

    @Test
    void aLineHoldingTheLiteralTwiceCountsTwiceAndMatchesNeverOverlap() throws Exception {
        Path file = write("ERROR or ERROR\naaaaa\n");
        assertEquals(2, count(file, "ERROR", true)); // matches, as the viewer steps through them (grep -c would say 1 line)
        assertArrayEquals(new long[] {15, 17}, offsets(file, "aa", true)); // like indexOf stepping past each match
        assertArrayEquals(new long[] {15, 16, 17, 18, 19}, offsets(file, "a", true));
        assertEquals(0, count(file, "ERROR or ERROR or", true)); // longer than any line
    }

    @Test
    void multibyteUtf8LiteralsAreFoundAtTheirFirstByte() throws Exception {
        String s = "caf\u00E9 \u00E9t\u00E9\n\u2713 done \u2713\u2713\n\uD83D\uDE00x\u00E9";
        Path file = write(s);
        for (int piece : PIECES) {
            assertArrayEquals(reference(file, "\u00E9t\u00E9", false), scan(file, "\u00E9t\u00E9", false, piece));
            assertArrayEquals(reference(file, "\u2713", false), scan(file, "\u2713", false, piece));
            assertArrayEquals(reference(file, "\u00E9", false), scan(file, "\u00E9", false, piece));
        }
        assertArrayEquals(new long[] {bytes(s.substring(0, s.indexOf("\u00E9t")))}, offsets(file, "\u00E9t\u00E9", true));
        assertEquals(3, count(file, "\u2713", true));
        assertEquals(1, count(file, "\uD83D\uDE00", true));
        assertEquals(4, count(file, "\u00E9", true));
        // case-insensitive non-ASCII still decodes (É matches é), the fast path is ASCII only
        assertEquals(4, count(file, "\u00C9", false));
    }

    @Test
    void caseInsensitiveAsciiFoldsOnlyAsciiLettersLikeTheRegexItReplaces() throws Exception {
        Path file = write("Error ERROR error eRrOr\n[x] {X} @ ` ERR0R \u00C9RROR\nid=ID Id iD\n");
        assertEquals(4, count(file, "error", false));
        assertEquals(4, count(file, "ERROR", false));
        assertEquals(1, count(file, "error", true));
        assertEquals(1, count(file, "@", false));
        assertEquals(1, count(file, "`", false)); // '@' | 0x20 == '`', but only letters fold
        assertEquals(4, count(file, "id", false));
        for (int piece : PIECES) {
            for (String q : new String[] {"error", "ERROR", "id=", "rr", "@ `", "x] {"}) {
                assertArrayEquals(reference(file, q, true), scan(file, q, true, piece), q + " piece " + piece);
            }
        }
    }

    @Test
    @Stress
    void randomTextAgreesWithIndexOfAndTheCaseInsensitiveRegex() throws Exception {
        Random rnd = new Random(5);
        String alphabet = "aAbBeErRoO \n\u00E9\u2713[]";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < TestScale.size(20_000); i++) {
            sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
        }
        Path file = write(sb.toString());
        for (String q : new String[] {"a", "ab", "aba", "Er", "ERROR", "eRrO", "\u00E9\u2713", " \n", "bbb", "oooo"}) {
            for (int piece : new int[] {3, 16, 61, 4096, LiteralScan.PIECE}) {
                assertArrayEquals(reference(file, q, false), scan(file, q, false, piece), q + " piece " + piece);
                if (q.chars().allMatch(c -> c < 0x80)) {
                    assertArrayEquals(reference(file, q, true), scan(file, q, true, piece), q + " folded, piece " + piece);
                }
            }
            assertArrayEquals(reference(file, q, false), offsets(file, q, true), q);
        }
    }

    @Test
    void bothFiltersAgreeWithIndexOf() throws Exception {
        // mostly lower-case text: 'E' is rare (one-byte filter), 'e' and 'r' are common (two-byte filter)
        Random rnd = new Random(7);
        StringBuilder sb = new StringBuilder();
        while (sb.length() < 300_000) {
            sb.append(rnd.nextInt(50) == 0 ? "ERROR x ERROR\n" : "error in worker " + rnd.nextInt(1000) + " retried\n");
        }
        Path file = write(sb.toString());
        for (int piece : new int[] {5, 64, 4097, LiteralScan.PIECE}) {
            for (String q : new String[] {"ERROR", "error", "er", "r", "E", "retried\ne", "ERROR\nerror"}) {
                LiteralScan exact = new LiteralScan(q.getBytes(StandardCharsets.UTF_8), false, piece);
                assertArrayEquals(reference(file, q, false), scan(exact, file), q + " piece " + piece);
                LiteralScan folded = new LiteralScan(q.getBytes(StandardCharsets.UTF_8), true, piece);
                assertArrayEquals(reference(file, q, true), scan(folded, file), q + " folded, piece " + piece);
                if (q.equals("ERROR")) {
                    assertFalse(exact.pairMode());
                    assertTrue(folded.pairMode());
                }
            }
        }
    }

    @Test
    void partsScannedSideBySideReportWhatOneScanFindsInOrder() throws Exception {
        Random rnd = new Random(13);
        // Runs of one letter make matches of "aa" or "abab" overlap part boundaries in every way,
        // and small caps make parts stop early and the merge scan on by itself.
        for (String alphabet : new String[] {"a", "ab", "aab\n", "abcE"}) {
            StringBuilder sb = new StringBuilder();
            while (sb.length() < 3_000) {
                sb.append(String.valueOf(alphabet.charAt(rnd.nextInt(alphabet.length()))).repeat(1 + rnd.nextInt(6)));
            }
            Path file = write(sb.toString());
            for (String q : new String[] {"a", "aa", "aaa", "aba", "abab", "b\na", "cE"}) {
                long[] want = reference(file, q, false);
                long[] folded = reference(file, q, true);
                for (int parts : new int[] {2, 3, 17}) {
                    for (int cap : new int[] {1, 1_000_000}) {
                        for (int piece : new int[] {3, 4096}) {
                            String what = q.replace("\n", "\\n") + " in " + alphabet.replace("\n", "\\n") + ", " + parts
                                    + " parts, cap " + cap + ", piece " + piece;
                            assertArrayEquals(want, scan(new LiteralScan(q.getBytes(StandardCharsets.UTF_8), false, piece, parts, cap), file), what);
                            assertArrayEquals(folded, scan(new LiteralScan(q.getBytes(StandardCharsets.UTF_8), true, piece, parts, cap), file),
                                    what + ", folded");
                        }
                    }
                }
            }
        }
    }

    @Test
    void aBigFileIsScannedInPartsWithProgressAndACancelLeavesNoThreadBehind() throws Exception {
        // Over two parts' worth (SplitScan.MIN_PART each), so a machine of two cores or more splits it.
        Random rnd = new Random(17);
        byte[] bytes = new byte[(int) (2 * SplitScan.MIN_PART + 12_345)];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (rnd.nextInt(500) == 0 ? '\n' : 'a' + rnd.nextInt(20));
        }
        for (int at = 1_000; at < bytes.length - 10; at += 1 + rnd.nextInt(2_000_000)) {
            System.arraycopy("ERROR".getBytes(StandardCharsets.US_ASCII), 0, bytes, at, 5);
        }
        System.arraycopy("ERROR".getBytes(StandardCharsets.US_ASCII), 0, bytes, (int) SplitScan.MIN_PART - 2, 5); // across the cut of two parts
        Path file = Files.write(dir.resolve("big.log"), bytes);
        List<Long> updates = new ArrayList<>();
        LongStream.Builder out = LongStream.builder();
        assertTrue(new LiteralScan("ERROR".getBytes(StandardCharsets.US_ASCII), false).run(file, new FileSearch.Progress() {
            @Override
            public void update(long scanned, long size, long matches) {
                updates.add(scanned);
            }

            @Override
            public boolean cancelled() {
                return false;
            }
        }, out::add, () -> 0));
        assertArrayEquals(reference(file, "ERROR", false), out.build().toArray());
        assertEquals(bytes.length, updates.get(updates.size() - 1));
        assertTrue(updates.size() > 2, "progress on the way: " + updates);
        for (int i = 1; i < updates.size(); i++) {
            assertTrue(updates.get(i) >= updates.get(i - 1), "progress goes forward: " + updates);
        }

        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger(); // parts ask too
        assertFalse(new LiteralScan("ERROR".getBytes(StandardCharsets.US_ASCII), false).run(file, new FileSearch.Progress() {
            @Override
            public void update(long scanned, long size, long matches) {
            }

            @Override
            public boolean cancelled() {
                return asked.incrementAndGet() > 3;
            }
        }, n -> { }, () -> 0));
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals("runboard-search-part") && t.isAlive()),
                "a part's thread outlived its search");
    }

    @Test
    void aRegexWithARequiredLiteralMatchesLikeTheRegexOnEveryLine() throws Exception {
        Random rnd = new Random(11);
        StringBuilder sb = new StringBuilder("ERROR code 1 at start ERROR code 22\n");
        while (sb.length() < 200_000) {
            switch (rnd.nextInt(6)) {
                case 0 -> sb.append("x ERROR code ").append(rnd.nextInt(100)).append(" and ERROR code ").append(rnd.nextInt(9)).append('\n');
                case 1 -> sb.append("ERROR codex ERROR code\n");
                case 2 -> sb.append("timeout after ").append(rnd.nextInt(5000)).append(" ms \u00E9\r\n");
                default -> sb.append("info step ").append(rnd.nextInt()).append('\n');
            }
        }
        sb.append("last ERROR code 7");
        Path file = write(sb.toString());
        for (String re : new String[] {"ERROR code \\d+", "^ERROR code \\d", "code \\d+$", "\\bcode\\b", "timeout after \\d+ ms", "after [0-9]+ ms\\s"}) {
            assertTrue(FileSearch.requiredLiteral(re) != null, re);
            assertArrayEquals(perLine(file, re), offsets(file, re, true), re);
        }
    }

    /** Every match of the regex on each line by itself (the lines as Latin-1 text), at its byte offset. */
    private static long[] perLine(Path file, String re) throws Exception {
        String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        Matcher m = Pattern.compile(re, Pattern.UNIX_LINES | Pattern.MULTILINE).matcher("");
        LongStream.Builder out = LongStream.builder();
        int start = 0;
        while (start <= text.length()) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? text.length() : nl;
            m.reset(text.substring(start, end));
            while (m.find()) {
                out.add(start + m.start());
            }
            start = end + 1;
        }
        return out.build().toArray();
    }

    @Test
    void emptyFileShortFileAndCancel() throws Exception {
        Path empty = write("");
        assertEquals(0, count(empty, "ERROR", true));
        Path shortFile = write("ERR");
        assertEquals(0, count(shortFile, "ERROR", true));
        assertEquals(1, count(shortFile, "err", false));
        FileSearch.Result r = new FileSearch(new FileSearch.Query("ERR", true)).run(shortFile, new FileSearch.Progress() {
            @Override
            public void update(long scanned, long size, long matches) {
            }

            @Override
            public boolean cancelled() {
                return true;
            }
        });
        assertFalse(r.complete());
        FileSearch.Result done = new FileSearch(new FileSearch.Query("ERR", true)).run(shortFile, progress());
        assertTrue(done.complete());
    }

    private Path write(String s) throws Exception {
        return Files.write(Files.createTempFile(dir, "lit", ".log"), s.getBytes(StandardCharsets.UTF_8));
    }

    private static long bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static long[] scan(Path file, String q, boolean fold, int piece) throws Exception {
        return scan(new LiteralScan(q.getBytes(StandardCharsets.UTF_8), fold, piece), file);
    }

    private static long[] scan(LiteralScan scan, Path file) throws Exception {
        LongStream.Builder out = LongStream.builder();
        assertTrue(scan.run(file, progress(), out::add, () -> 0));
        return out.build().toArray();
    }

    /**
     * What the search found before the fast path: {@code indexOf} stepping past each match on the
     * bytes as Latin-1 text, or the ASCII-only case-insensitive regex.
     */
    private static long[] reference(Path file, String q, boolean fold) throws Exception {
        String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        String needle = FileSearch.latin1(q);
        LongStream.Builder out = LongStream.builder();
        if (fold) {
            Matcher m = Pattern.compile(Pattern.quote(needle), Pattern.CASE_INSENSITIVE).matcher(text);
            while (m.find()) {
                out.add(m.start());
            }
        } else {
            for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
                out.add(i);
            }
        }
        return out.build().toArray();
    }

    private static long count(Path file, String q, boolean cs) throws Exception {
        return new FileSearch(new FileSearch.Query(q, cs)).run(file, progress()).count();
    }

    private static long[] offsets(Path file, String q, boolean cs) throws Exception {
        return new FileSearch(new FileSearch.Query(q, cs)).run(file, progress()).offsets();
    }

    private static FileSearch.Progress progress() {
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
