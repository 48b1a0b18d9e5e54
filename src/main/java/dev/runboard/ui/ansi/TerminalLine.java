package dev.runboard.ui.ansi;

import java.util.ArrayList;
import java.util.List;

/**
 * One line as a terminal draws it: a row of styled characters and a cursor. A carriage return
 * moves the cursor home and later text overwrites what is there ("abcdef\rXY" shows "XYcdef"), a
 * backspace moves it one back, and erase-in-line (ESC [ K) blanks part of the row. Progress bars
 * that redraw their line thus show their last state, as in a terminal.
 */
final class TerminalLine {
    private final StringBuilder chars = new StringBuilder();
    private final List<SgrStyle> styles = new ArrayList<>();
    private int cursor;

    void put(char c, SgrStyle style) {
        while (chars.length() < cursor) {
            chars.append(' ');
            styles.add(SgrStyle.PLAIN);
        }
        if (cursor < chars.length()) {
            chars.setCharAt(cursor, c);
            styles.set(cursor, style);
        } else {
            chars.append(c);
            styles.add(style);
        }
        cursor++;
    }

    void carriageReturn() {
        cursor = 0;
    }

    void backspace() {
        cursor = Math.max(0, cursor - 1);
    }

    /** ESC [ n K: 0 (or none) erases from the cursor to the end, 1 from the start to the cursor, 2 the whole line. */
    void erase(int mode) {
        if (mode == 0) {
            truncate(cursor);
        } else if (mode == 1) {
            for (int i = 0; i <= cursor && i < chars.length(); i++) {
                chars.setCharAt(i, ' ');
                styles.set(i, SgrStyle.PLAIN);
            }
        } else if (mode == 2) {
            truncate(0); // the cursor stays: text written next is padded out to it
        }
    }

    private void truncate(int length) {
        if (length < chars.length()) {
            chars.setLength(length);
            styles.subList(length, styles.size()).clear();
        }
    }

    /** The row as spans of equal style. */
    StyledLine toStyledLine() {
        List<StyledLine.Span> spans = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= chars.length(); i++) {
            if (i == chars.length() || !styles.get(i).equals(styles.get(start))) {
                spans.add(new StyledLine.Span(chars.substring(start, i), styles.get(start)));
                start = i;
            }
        }
        return new StyledLine(spans, chars.toString());
    }
}
