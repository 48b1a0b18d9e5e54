package dev.runboard.ui.ansi;

import java.util.List;
import javafx.scene.paint.Color;
import javafx.scene.text.Text;

/** One run of terminal text as a node: palette colours and attributes as CSS classes, so both themes restyle them. */
public final class StyledRun {
    private StyledRun() {
    }

    public static Text of(String s, SgrStyle style) {
        Text t = new Text(s);
        t.getStyleClass().add("ansi-text");
        if (style.fgIndex() != SgrStyle.NONE) {
            t.getStyleClass().add("ansi-fg-" + style.fgIndex());
        } else if (style.fgRgb() != SgrStyle.NONE) {
            int rgb = style.fgRgb();
            // A stylesheet fill would override this, so these runs get no fill class.
            t.setFill(Color.rgb((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF));
        } else {
            t.getStyleClass().add("ansi-fg-default");
        }
        if (style.bold()) {
            t.getStyleClass().add("ansi-bold");
        }
        if (style.dim()) {
            t.getStyleClass().add("ansi-dim");
        }
        if (style.italic()) {
            t.getStyleClass().add("ansi-italic");
        }
        if (style.underline()) {
            t.setUnderline(true);
        }
        return t;
    }

    /**
     * Adds a span's text as runs, split at the match boundaries so matched characters get the
     * {@code find-match} class (and the {@code current}-th match {@code find-current}; -1 for none).
     */
    public static void addRuns(List<Text> runs, StyledLine.Span span, int offset, List<int[]> hits, int current) {
        String t = span.text();
        int pos = 0;
        for (int k = 0; k < hits.size(); k++) {
            int[] m = hits.get(k);
            int from = Math.max(m[0] - offset, pos);
            int to = Math.min(m[1] - offset, t.length());
            if (to <= from) {
                continue;
            }
            if (from > pos) {
                runs.add(of(t.substring(pos, from), span.style()));
            }
            Text hit = of(t.substring(from, to), span.style());
            hit.getStyleClass().add("find-match");
            if (k == current) {
                hit.getStyleClass().add("find-current");
            }
            runs.add(hit);
            pos = to;
        }
        if (pos < t.length()) {
            runs.add(of(t.substring(pos), span.style()));
        }
    }
}
