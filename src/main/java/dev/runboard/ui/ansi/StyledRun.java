package dev.runboard.ui.ansi;

import java.util.List;
import javafx.scene.paint.Color;
import javafx.scene.text.Text;

/**
 * One run of terminal text as a node: palette colours and attributes as CSS classes, so both
 * themes restyle them. Text has no background of its own: a run's background is put in its
 * properties under {@link #BACKGROUND} (a CSS class for the palette, a {@link Color} otherwise)
 * and {@link AnsiTextFlow} paints it behind the text.
 */
public final class StyledRun {
    /** Key in a run's properties of its background: a style class name (String) or a Color. */
    public static final String BACKGROUND = "runboard.ansiBackground";

    private StyledRun() {
    }

    public static Text of(String s, SgrStyle style) {
        Text t = new Text(s);
        t.getStyleClass().add("ansi-text");
        // Reverse video swaps the colours; an unset one is the pane's own (its text or its background).
        if (style.reverse()) {
            colourText(t, style.bgIndex(), style.bgRgb(), "ansi-fg-inverse");
        } else {
            colourText(t, style.fgIndex(), style.fgRgb(), "ansi-fg-default");
        }
        if (style.hasBackground()) {
            // On a background, "white" and "black" text mean it: the pane's greys would not read on a fill.
            t.getStyleClass().add("ansi-on-bg");
            t.getProperties().put(BACKGROUND, style.reverse()
                    ? background(style.fgIndex(), style.fgRgb(), "ansi-bg-inverse")
                    : background(style.bgIndex(), style.bgRgb(), null));
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
        if (style.conceal()) {
            t.getStyleClass().add("ansi-conceal");
        }
        if (style.underline()) {
            t.setUnderline(true);
        }
        if (style.strikethrough()) {
            t.setStrikethrough(true);
        }
        return t;
    }

    private static void colourText(Text t, int index, int rgb, String unset) {
        if (index != SgrStyle.NONE) {
            t.getStyleClass().add("ansi-fg-" + index);
        } else if (rgb != SgrStyle.NONE) {
            // A stylesheet fill would override this, so these runs get no fill class.
            t.setFill(colour(rgb));
        } else {
            t.getStyleClass().add(unset);
        }
    }

    private static Object background(int index, int rgb, String unset) {
        if (index != SgrStyle.NONE) {
            return "ansi-bg-" + index;
        }
        return rgb != SgrStyle.NONE ? colour(rgb) : unset;
    }

    private static Color colour(int rgb) {
        return Color.rgb((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF);
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
