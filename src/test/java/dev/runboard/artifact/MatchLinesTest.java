package dev.runboard.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which lines a search reports, as {@code grep -n} would print them, in every search mode (a literal,
 * a case-insensitive literal, a regex with a required literal, a regex without one, a non-ASCII
 * regex): zero-width matches at a line's end, an empty regex, a last line with and without its
 * newline, \r\n line ends, matches that would run into the next line. The viewer's jump to a
 * match lands on the same line.
 */
class MatchLinesTest {
    @TempDir
    Path dir;

    private Path file(String text) throws Exception {
        return Files.writeString(dir.resolve("out.log"), text);
    }

    /** "N:TEXT" for each reported line, as grep -n prints them. */
    private static List<String> grep(Path file, String regex, boolean caseSensitive) throws Exception {
        RunSearch.RunMatches m = new RunSearch(new FileSearch.Query(regex, caseSensitive))
                .search(new RunSearch.Run("r", "cmd", null, file), () -> false);
        return m == null ? List.of() : m.lines().stream().map(l -> l.number() + ":" + l.text()).toList();
    }

    private static List<String> grep(Path file, String regex) throws Exception {
        return grep(file, regex, true);
    }

    @Test
    void zeroWidthMatchesAreOnTheLineTheyEndAndNoLineFollowsTheLastNewline() throws Exception {
        Path f = file("alpha\nbeta\n");
        List<String> both = List.of("1:alpha", "2:beta");
        assertEquals(both, grep(f, "$"));
        assertEquals(both, grep(f, ""));
        assertEquals(both, grep(f, "^"));
        assertEquals(both, grep(f, "\\z"), "each line is its own subject, as in grep -P");
        assertEquals(both, grep(f, "a$"), "a regex with no required literal");
        assertEquals(both, grep(f, "A$", false), "case-insensitive");
        assertEquals(both, grep(f, "(?:\u00E9)?$"), "a non-ASCII regex (decoded line by line)");
        assertEquals(List.of("2:beta"), grep(f, "ta$"), "a regex with a required literal");
        assertEquals(List.of("2:beta"), grep(f, "(?:\u00E9)?beta$"));
    }

    @Test
    void aLastLineWithoutNewlineIsStillALine() throws Exception {
        Path f = file("alpha\nbeta");
        assertEquals(List.of("1:alpha", "2:beta"), grep(f, "$"));
        assertEquals(List.of("1:alpha", "2:beta"), grep(f, "a\\z"));
        assertEquals(List.of("2:beta"), grep(f, "ta"), "a literal at the very end");
        assertEquals(List.of("2:beta"), grep(f, "TA", false));
        assertEquals(List.of("2:beta"), grep(f, "e\\w*$"));
    }

    @Test
    void emptyLinesAndAnEmptyFile() throws Exception {
        Path f = file("\n\nx\n\n");
        assertEquals(List.of("1:", "2:", "4:"), grep(f, "^$"));
        assertEquals(List.of("1:", "2:", "3:x", "4:"), grep(f, ""));
        assertEquals(List.of("1:", "2:", "4:"), grep(f, "^(?:\u00E9)?$"));
        assertEquals(List.of(), grep(file(""), ""));
    }

    @Test
    void crLfLineEndsKeepTheirNumbersAndTextIsShownWithoutTheCr() throws Exception {
        Path f = file("alpha\r\nbeta\r\n");
        assertEquals(List.of("1:alpha", "2:beta"), grep(f, "$"));
        assertEquals(List.of("1:alpha", "2:beta"), grep(f, ""));
        assertEquals(List.of("2:beta"), grep(f, "beta\r$"));
        assertEquals(List.of("1:alpha", "2:beta"), grep(f, "\\r$", false));
    }

    @Test
    void aMatchNeverRunsIntoTheNextLine() throws Exception {
        Path f = file("alpha\n beta\ngamma\n");
        assertEquals(List.of("2: beta"), grep(f, "\\s*beta"));
        assertEquals(List.of(), grep(f, "a\\s+b"), "grep finds no line holding 'a', blanks, 'b'");
        assertEquals(List.of(), grep(f, "a\\sbe"), "the same with a required literal");
        assertEquals(List.of("2: beta", "3:gamma"), grep(f, "(?<!a)\\sbeta|^g"));
    }

    @Test
    void theViewerJumpsToTheLineAZeroWidthMatchEnds() throws Exception {
        Path f = file("alpha\nbeta\ngamma\n");
        FileSearch.Result r = new FileSearch(new FileSearch.Query("$", true)).run(f, new FileSearch.Progress() {
            @Override
            public void update(long scanned, long size, long matches) {
            }

            @Override
            public boolean cancelled() {
                return false;
            }
        });
        assertEquals(3, r.count());
        try (ArtifactFile file = new ArtifactFile(f)) {
            LineIndex index = new LineIndex(f, () -> false);
            index.run();
            PageReader reader = new PageReader(file, index);
            List<String> focused = java.util.Arrays.stream(r.offsets()).mapToObj(o -> {
                PageReader.Page p = reader.around(o, 10);
                return p.lines().get(p.focusRow()).text();
            }).toList();
            assertEquals(List.of("alpha", "beta", "gamma"), focused);
        }
    }

    @Test
    void aLongLineIsCutWithTheRestCounted() throws Exception {
        String longLine = "x".repeat(ArtifactFile.LINE_LIMIT + 1000) + " needle";
        Path f = Files.write(dir.resolve("long.log"), ("short\n" + longLine + "\n").getBytes(StandardCharsets.UTF_8));
        RunSearch.RunMatches m = new RunSearch(new FileSearch.Query("needle", true))
                .search(new RunSearch.Run("r", "cmd", null, f), () -> false);
        RunSearch.Line line = m.lines().get(0);
        assertEquals(2, line.number());
        assertEquals(ArtifactFile.LINE_LIMIT, line.text().length());
        assertEquals(1000 + " needle".length(), line.cutBytes());
    }

    /**
     * A regex with a required literal is run only on the lines the literal scan finds, read through a
     * window: over lines of every length (some longer than the window's first look back, one longer
     * than the window), the literal twice on a line, at a line's start and end and on a last line
     * without its newline, every such regex reports exactly the matches a line-by-line run of the
     * same regex over every line finds.
     */
    @Test
    void aRegexWithALiteralFindsWhatItFindsRunOnEveryLine() throws Exception {
        java.util.Random r = new java.util.Random(42);
        StringBuilder text = new StringBuilder();
        String[] words = {"ERROR 12 reset by peer", "error 7 Reset By", "reset by", "INFO ok", "", "ERROR x reset by reset by"};
        while (text.length() < 2_000_000) {
            int kind = r.nextInt(100);
            if (kind == 0) {
                text.append("y".repeat(300_000)).append(" ERROR 9 reset by ").append("z".repeat(20_000)); // past the window
            } else if (kind < 5) {
                text.append("q".repeat(20_000 + r.nextInt(30_000))).append(words[r.nextInt(words.length)]); // past the look back
            } else {
                text.append(words[r.nextInt(words.length)]).append(" ").append(r.nextInt(1000));
            }
            text.append('\n');
        }
        text.append("last ERROR 3 reset by"); // no newline after it
        Path f = file(text.toString());
        for (String regex : List.of("ERROR \\d+ reset by", "reset by", "^reset by", "reset by$", "ERROR [a-z0-9]+ reset",
                "(?i)error \\d+ reset", "e\\w+ reset by")) {
            for (boolean caseSensitive : List.of(true, false)) {
                java.util.regex.Pattern p = java.util.regex.Pattern.compile(regex,
                        java.util.regex.Pattern.UNIX_LINES | (caseSensitive ? 0 : java.util.regex.Pattern.CASE_INSENSITIVE));
                List<Long> expected = new java.util.ArrayList<>();
                int start = 0;
                String all = text.toString();
                while (start < all.length()) {
                    int nl = all.indexOf('\n', start);
                    int end = nl < 0 ? all.length() : nl;
                    java.util.regex.Matcher m = p.matcher(all.substring(start, end));
                    while (m.find()) {
                        expected.add((long) start + m.start());
                    }
                    start = end + 1;
                }
                FileSearch.Result found = new FileSearch(new FileSearch.Query(regex, caseSensitive)).run(f, new FileSearch.Progress() {
                    @Override
                    public void update(long scanned, long size, long matches) {
                    }

                    @Override
                    public boolean cancelled() {
                        return false;
                    }
                });
                String what = regex + (caseSensitive ? "" : " ignoring case");
                assertEquals(expected.size(), found.count(), what);
                assertEquals(expected, java.util.Arrays.stream(found.offsets()).boxed().toList(), what);
            }
        }
    }
}
