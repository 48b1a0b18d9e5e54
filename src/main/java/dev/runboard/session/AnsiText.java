package dev.runboard.session;

import java.util.regex.Pattern;

/** ANSI escape sequences in terminal output: recognised so text can be shown without them. */
public final class AnsiText {
    /** CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and two-byte escapes. */
    public static final Pattern ESCAPE = Pattern.compile(
            "\u001B\\[[0-?]*[ -/]*[@-~]|\u001B\\][^\u0007\u001B]*(?:\u0007|\u001B\\\\)|\u001B[@-Z\\\\-_]");

    private AnsiText() {
    }

    public static String strip(String s) {
        return s.indexOf('\u001B') < 0 ? s : ESCAPE.matcher(s).replaceAll("");
    }
}
