package dev.runboard.ui.detail;

import dev.runboard.ui.ansi.AnsiParser;
import dev.runboard.ui.ansi.SgrStyle;
import dev.runboard.ui.ansi.StyledLine;
import java.util.ArrayList;
import java.util.List;

/**
 * Bounds what one poll tick hands the tail pane: at most {@value #MAX_LINES} lines (the first
 * {@value #HEAD_LINES} and the last ones, with a marker line between) of at most
 * {@value #MAX_LINE_CHARS} characters each. A preview of 64 KiB of {@code yes} is 32,768 lines;
 * parsing and listing all of them each tick cost the FX thread tens of milliseconds, this costs
 * about one. Only the kept lines are parsed.
 */
public final class OutputTailLines {
    static final int MAX_LINES = 2_000;
    static final int HEAD_LINES = 100;
    static final int MAX_LINE_CHARS = 2_000;

    private OutputTailLines() {
    }

    public static List<StyledLine> parse(String text) {
        return parse(text, new ParsedLines());
    }

    /** As {@link #parse(String)}, re-using the lines {@code cache} parsed the previous time. */
    static List<StyledLine> parse(String text, ParsedLines cache) {
        cache.nextParse();
        List<int[]> bounds = new ArrayList<>();
        int n = text.length();
        int start = 0;
        int skipped = 0;
        // Keep the head lines, then a ring of the last lines; count what falls in between.
        int[][] ring = new int[MAX_LINES - HEAD_LINES][];
        int ringCount = 0;
        while (start < n) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? n : nl;
            int[] b = {start, end};
            if (bounds.size() < HEAD_LINES) {
                bounds.add(b);
            } else {
                if (ringCount >= ring.length) {
                    skipped++;
                }
                ring[ringCount % ring.length] = b;
                ringCount++;
            }
            start = end + 1;
        }
        AnsiParser parser = new AnsiParser();
        List<StyledLine> lines = new ArrayList<>(Math.min(MAX_LINES + 1, bounds.size() + ringCount + 1));
        for (int[] b : bounds) {
            lines.add(line(parser, cache, text, b));
        }
        if (skipped > 0) {
            lines.add(StyledLine.plain("\u2026 " + skipped + " more lines of this preview not shown here: open the full output \u2026"));
        }
        int kept = Math.min(ringCount, ring.length);
        for (int i = ringCount - kept; i < ringCount; i++) {
            lines.add(line(parser, cache, text, ring[i % ring.length]));
        }
        return lines;
    }

    private static StyledLine line(AnsiParser parser, ParsedLines cache, String text, int[] b) {
        int len = b[1] - b[0];
        if (len <= MAX_LINE_CHARS) {
            return cache.parse(parser, text.substring(b[0], b[1]));
        }
        StyledLine cut = cache.parse(parser, text.substring(b[0], b[0] + MAX_LINE_CHARS));
        List<StyledLine.Span> spans = new ArrayList<>(cut.spans());
        String more = " \u2026 (" + (len - MAX_LINE_CHARS) + " more characters)";
        spans.add(new StyledLine.Span(more, SgrStyle.PLAIN));
        return new StyledLine(spans, cut.plain() + more);
    }
}
