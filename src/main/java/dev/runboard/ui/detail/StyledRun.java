package dev.runboard.ui.detail;

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
}
