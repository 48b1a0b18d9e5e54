package dev.runboard.ui.detail;

import dev.runboard.ui.ansi.AnsiParser;
import dev.runboard.ui.ansi.SgrStyle;
import dev.runboard.ui.ansi.StyledLine;
import java.util.HashMap;
import java.util.Map;

/**
 * The lines of the previous parse of a session's output, so the next parse (a poll later, the
 * tail moved on by a few lines) parses only what is new. Keyed by the raw line and the style it
 * starts in, since colours carry over line ends. Holds two parses' worth at most: what the last
 * parse used and what this one uses. FX thread only.
 */
final class ParsedLines {
    private record Key(String raw, SgrStyle start) {
    }

    private record Parsed(StyledLine line, SgrStyle end) {
    }

    private Map<Key, Parsed> previous = new HashMap<>();
    private Map<Key, Parsed> current = new HashMap<>();

    /** Starts a new parse: lines not used since the last one are let go. */
    void nextParse() {
        previous = current;
        current = new HashMap<>();
    }

    /** The styled line for {@code raw} as {@code parser} would parse it now, leaving the parser in the style after it. */
    StyledLine parse(AnsiParser parser, String raw) {
        Key key = new Key(raw, parser.style());
        Parsed known = current.get(key);
        if (known == null) {
            known = previous.get(key);
        }
        if (known == null) {
            StyledLine line = parser.parseLine(raw);
            known = new Parsed(line, parser.style());
        }
        current.put(key, known);
        parser.setStyle(known.end());
        return known.line();
    }
}
