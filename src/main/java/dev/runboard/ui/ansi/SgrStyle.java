package dev.runboard.ui.ansi;

/**
 * The text attributes an ANSI SGR sequence sets. Colours are a palette index (0–15, shown via
 * CSS so themes can tune them), or an RGB value for 256-colour and true-colour output.
 */
public record SgrStyle(int fgIndex, int fgRgb, boolean bold, boolean dim, boolean italic, boolean underline) {
    public static final int NONE = -1;
    public static final SgrStyle PLAIN = new SgrStyle(NONE, NONE, false, false, false, false);

    public boolean isPlain() {
        return equals(PLAIN);
    }

    SgrStyle withFgIndex(int index) {
        return new SgrStyle(index, NONE, bold, dim, italic, underline);
    }

    SgrStyle withFgRgb(int rgb) {
        return new SgrStyle(NONE, rgb, bold, dim, italic, underline);
    }

    SgrStyle withBold(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, on, on ? dim : false, italic, underline);
    }

    SgrStyle withDim(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, on ? bold : false, on, italic, underline);
    }

    SgrStyle withItalic(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, bold, dim, on, underline);
    }

    SgrStyle withUnderline(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, bold, dim, italic, on);
    }
}
