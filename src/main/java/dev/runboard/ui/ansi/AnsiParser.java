package dev.runboard.ui.ansi;

import dev.runboard.session.AnsiText;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * Turns terminal output into styled lines: SGR colours and attributes are kept (the style carries
 * over line ends, as in a terminal), every other escape is dropped, a carriage return or backspace
 * makes later text overwrite the line as in a terminal (progress bars show their last state) and
 * other control characters are removed.
 */
public final class AnsiParser {
    private SgrStyle style = SgrStyle.PLAIN;

    /** Parses a whole text into lines; a trailing newline does not make an empty last line. */
    public List<StyledLine> parse(String text) {
        List<StyledLine> lines = new ArrayList<>();
        int start = 0;
        int n = text.length();
        while (start < n) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? n : nl;
            lines.add(parseLine(text.substring(start, end)));
            start = end + 1;
        }
        return lines;
    }

    /** The style the next line starts in (colours carry over line ends). */
    public SgrStyle style() {
        return style;
    }

    public void setStyle(SgrStyle style) {
        this.style = style;
    }

    public StyledLine parseLine(String raw) {
        String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw; // CR LF ends a line as LF does
        if (line.indexOf('\r') >= 0 || line.indexOf('\b') >= 0) {
            return drawn(line);
        }
        List<StyledLine.Span> spans = new ArrayList<>();
        StringBuilder plain = new StringBuilder(line.length());
        Matcher m = AnsiText.ESCAPE.matcher(line);
        int pos = 0;
        while (pos < line.length()) {
            int esc = line.indexOf('\u001B', pos);
            if (esc < 0) {
                addSpan(spans, plain, line.substring(pos));
                break;
            }
            addSpan(spans, plain, line.substring(pos, esc));
            if (m.find(esc) && m.start() == esc) {
                String seq = m.group();
                if (seq.startsWith("\u001B[") && seq.endsWith("m")) {
                    applySgr(seq.substring(2, seq.length() - 1));
                }
                pos = m.end();
            } else {
                pos = esc + 1; // a lone or unfinished ESC: drop it
            }
        }
        return new StyledLine(spans, plain.toString());
    }

    /**
     * A line that moves its cursor back (carriage return, backspace), drawn character by character
     * as a terminal would: later text overwrites earlier text, ESC [ K erases. The slower path,
     * taken only by lines that need it.
     */
    private StyledLine drawn(String line) {
        TerminalLine row = new TerminalLine();
        Matcher m = AnsiText.ESCAPE.matcher(line);
        int pos = 0;
        while (pos < line.length()) {
            char c = line.charAt(pos);
            if (c == '\u001B') {
                if (m.find(pos) && m.start() == pos) {
                    String seq = m.group();
                    if (seq.startsWith("\u001B[") && seq.endsWith("m")) {
                        applySgr(seq.substring(2, seq.length() - 1));
                    } else if (seq.startsWith("\u001B[") && seq.endsWith("K")) {
                        row.erase(codes(seq.substring(2, seq.length() - 1))[0]);
                    }
                    pos = m.end();
                } else {
                    pos++;
                }
                continue;
            }
            if (c == '\r') {
                row.carriageReturn();
            } else if (c == '\b') {
                row.backspace();
            } else if (c >= 0x20 && c != 0x7F || c == '\t') {
                row.put(c, style);
            }
            pos++;
        }
        return row.toStyledLine();
    }

    private void addSpan(List<StyledLine.Span> spans, StringBuilder plain, String text) {
        String clean = withoutControls(text);
        if (!clean.isEmpty()) {
            spans.add(new StyledLine.Span(clean, style));
            plain.append(clean);
        }
    }

    private static String withoutControls(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = (c < 0x20 && c != '\t') || c == 0x7F;
            if (control && sb == null) {
                sb = new StringBuilder(s.length()).append(s, 0, i);
            } else if (!control && sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? s : sb.toString();
    }

    private void applySgr(String params) {
        int[] p = codes(params);
        for (int i = 0; i < p.length; i++) {
            int code = p[i];
            if (code == 0) {
                style = SgrStyle.PLAIN;
            } else if (code == 1) {
                style = style.withBold(true);
            } else if (code == 2) {
                style = style.withDim(true);
            } else if (code == 3) {
                style = style.withItalic(true);
            } else if (code == 4) {
                style = style.withUnderline(true);
            } else if (code == 7) {
                style = style.withReverse(true);
            } else if (code == 8) {
                style = style.withConceal(true);
            } else if (code == 9) {
                style = style.withStrikethrough(true);
            } else if (code == 22) {
                style = style.withBold(false).withDim(false);
            } else if (code == 23) {
                style = style.withItalic(false);
            } else if (code == 24) {
                style = style.withUnderline(false);
            } else if (code == 27) {
                style = style.withReverse(false);
            } else if (code == 28) {
                style = style.withConceal(false);
            } else if (code == 29) {
                style = style.withStrikethrough(false);
            } else if (code >= 30 && code <= 37) {
                style = style.withFgIndex(code - 30);
            } else if (code >= 90 && code <= 97) {
                style = style.withFgIndex(code - 90 + 8);
            } else if (code == 39) {
                style = style.withFgIndex(SgrStyle.NONE);
            } else if (code >= 40 && code <= 47) {
                style = style.withBgIndex(code - 40);
            } else if (code >= 100 && code <= 107) {
                style = style.withBgIndex(code - 100 + 8);
            } else if (code == 49) {
                style = style.withBgIndex(SgrStyle.NONE);
            } else if ((code == 38 || code == 48) && i + 1 < p.length) {
                i += extendedColour(p, i, code == 38);
            }
        }
    }

    /**
     * Applies "38;5;N" / "38;2;R;G;B" (text) or the same with 48 (background) starting at
     * {@code p[i]}; returns how many parameters after the 38/48 it used.
     */
    private int extendedColour(int[] p, int i, boolean text) {
        int mode = p[i + 1];
        if (mode == 5 && i + 2 < p.length) {
            int n = p[i + 2];
            if (n >= 0 && n < 16) {
                style = text ? style.withFgIndex(n) : style.withBgIndex(n);
            } else if (n >= 16) {
                int rgb = colour256(n);
                style = text ? style.withFgRgb(rgb) : style.withBgRgb(rgb);
            }
            return 2;
        }
        if (mode == 2 && i + 4 < p.length) {
            int rgb = rgb(p[i + 2], p[i + 3], p[i + 4]);
            style = text ? style.withFgRgb(rgb) : style.withBgRgb(rgb);
            return 4;
        }
        return 1;
    }

    /** The RGB value of a 256-colour palette entry from 16 on: the 6x6x6 cube, then the greys. */
    private static int colour256(int n) {
        if (n < 232) {
            int c = n - 16;
            int[] level = {0, 95, 135, 175, 215, 255};
            return rgb(level[c / 36 % 6], level[c / 6 % 6], level[c % 6]);
        }
        int grey = 8 + (Math.min(n, 255) - 232) * 10;
        return rgb(grey, grey, grey);
    }

    private static int rgb(int r, int g, int b) {
        return (clamp(r) << 16) | (clamp(g) << 8) | clamp(b);
    }

    private static int clamp(int v) {
        return Math.max(0, Math.min(255, v));
    }

    /**
     * The numbers of an SGR parameter list ("1;38;5;208", ":" also separates); an empty one is 0,
     * one that is not a number is -1 (ignored). Hand-parsed: a regex split here ran for every
     * colour change of every line shown, per poll.
     */
    static int[] codes(String params) {
        if (params.isEmpty()) {
            return new int[] {0};
        }
        int count = 1;
        for (int i = 0; i < params.length(); i++) {
            char c = params.charAt(i);
            if (c == ';' || c == ':') {
                count++;
            }
        }
        int[] codes = new int[count];
        int k = 0;
        int value = 0;
        boolean valid = true;
        for (int i = 0; i <= params.length(); i++) {
            char c = i == params.length() ? ';' : params.charAt(i);
            if (c == ';' || c == ':') {
                codes[k++] = valid ? value : -1;
                value = 0;
                valid = true;
            } else if (c >= '0' && c <= '9' && value < 100_000) {
                value = value * 10 + (c - '0');
            } else if (c < '0' || c > '9') {
                valid = false;
            }
        }
        return codes;
    }
}
