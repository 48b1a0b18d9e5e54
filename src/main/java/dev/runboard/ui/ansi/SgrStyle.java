package dev.runboard.ui.ansi;

/**
 * The text attributes an ANSI SGR sequence sets. Colours (text and background) are a palette
 * index (0–15, shown via CSS so themes can tune them), or an RGB value for 256-colour and
 * true-colour output. Reverse video and conceal are kept as flags: what they swap or hide depends
 * on the theme's default colours, which only the renderer knows.
 */
public record SgrStyle(int fgIndex, int fgRgb, int bgIndex, int bgRgb,
                       boolean bold, boolean dim, boolean italic, boolean underline, boolean reverse, boolean conceal,
                       boolean strikethrough) {
    public static final int NONE = -1;
    public static final SgrStyle PLAIN = new SgrStyle(NONE, NONE, NONE, NONE, false, false, false, false, false, false, false);

    public boolean isPlain() {
        return equals(PLAIN);
    }

    /** True when the run has a background colour of its own (reverse video gives every run one). */
    public boolean hasBackground() {
        return reverse || bgIndex != NONE || bgRgb != NONE;
    }

    SgrStyle withFgIndex(int index) {
        return new SgrStyle(index, NONE, bgIndex, bgRgb, bold, dim, italic, underline, reverse, conceal, strikethrough);
    }

    SgrStyle withFgRgb(int rgb) {
        return new SgrStyle(NONE, rgb, bgIndex, bgRgb, bold, dim, italic, underline, reverse, conceal, strikethrough);
    }

    SgrStyle withBgIndex(int index) {
        return new SgrStyle(fgIndex, fgRgb, index, NONE, bold, dim, italic, underline, reverse, conceal, strikethrough);
    }

    SgrStyle withBgRgb(int rgb) {
        return new SgrStyle(fgIndex, fgRgb, NONE, rgb, bold, dim, italic, underline, reverse, conceal, strikethrough);
    }

    SgrStyle withBold(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, bgIndex, bgRgb, on, on && dim, italic, underline, reverse, conceal, strikethrough);
    }

    SgrStyle withDim(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, bgIndex, bgRgb, on && bold, on, italic, underline, reverse, conceal, strikethrough);
    }

    SgrStyle withItalic(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, bgIndex, bgRgb, bold, dim, on, underline, reverse, conceal, strikethrough);
    }

    SgrStyle withUnderline(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, bgIndex, bgRgb, bold, dim, italic, on, reverse, conceal, strikethrough);
    }

    SgrStyle withReverse(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, bgIndex, bgRgb, bold, dim, italic, underline, on, conceal, strikethrough);
    }

    SgrStyle withStrikethrough(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, bgIndex, bgRgb, bold, dim, italic, underline, reverse, conceal, on);
    }

    SgrStyle withConceal(boolean on) {
        return new SgrStyle(fgIndex, fgRgb, bgIndex, bgRgb, bold, dim, italic, underline, reverse, on, strikethrough);
    }
}
