package dev.runboard.session;

/**
 * The last line of an output as a terminal leaves it: the last non-blank line of its end, ANSI
 * escapes removed, and of a line that progress output rewrote with carriage returns only what
 * follows the last rewrite. Read from at most the last {@value #WINDOW} bytes, each line decoded
 * alone: the table asks for every row's last line on every tick.
 */
public final class LastLine {
    /** How many of an output's last bytes are read. */
    public static final int WINDOW = 4096;

    private LastLine() {
    }

    /**
     * The last line of the output that ends with {@code end}, of which at most the last
     * {@value #WINDOW} bytes are read; {@code cut} says whether bytes come before {@code end}
     * (then its first bytes may be the inside of a character): for a store that keeps a preview's
     * bytes and finds its row's last line without reading the rest of them.
     */
    public static String ofEnd(byte[] end, boolean cut) {
        int from = Math.max(0, end.length - WINDOW);
        return from(end, from, cut || from > 0);
    }

    private static String from(byte[] end, int from, boolean cut) {
        while (cut && from < end.length && OutputPreview.isContinuation(end[from])) {
            from++; // start on a character, not inside one
        }
        // Line by line from the end, each decoded alone (with its newline: a newline byte is never
        // inside a UTF-8 sequence, so that gives the characters a decoding of the whole window would):
        // ten thousand rows' last lines cost one line's decoding each, not a 4 KiB window's.
        int stop = end.length;
        while (stop > from) {
            int start = stop - 1;
            while (start >= from && end[start] != '\n') {
                start--;
            }
            start++;
            String raw = OutputPreview.decode(java.util.Arrays.copyOfRange(end, start, Math.min(stop + 1, end.length)));
            // AnsiText compiles its pattern as it loads: output without escapes never needs it (a
            // finished exec finds its last line just after the command ended). Escapes go before the
            // carriage returns are read: a rewrite that only sets the window's title or a colour shows nothing.
            String line = shownPart(raw.indexOf('\u001B') < 0 ? raw : AnsiText.strip(raw)).strip();
            if (!line.isEmpty()) {
                return line;
            }
            stop = start - 1;
        }
        return "";
    }

    /**
     * What a terminal leaves of a line that progress output rewrote with carriage returns
     * ({@code \rprogress 1\rprogress 2...}): the text after its last {@code \r}, not all of the
     * rewritten text. A carriage return that ends the line (CRLF, or a progress line waiting for its
     * next rewrite) erases nothing and is ignored; so is a rewrite that left only blanks.
     */
    private static String shownPart(String line) {
        int end = line.length();
        while (end > 0 && (line.charAt(end - 1) == '\n' || line.charAt(end - 1) == '\r')) {
            end--;
        }
        int cr = line.lastIndexOf('\r', end - 1);
        while (cr >= 0 && line.substring(cr + 1, end).isBlank()) {
            end = cr;
            cr = line.lastIndexOf('\r', end - 1);
        }
        return cr < 0 ? line.substring(0, end) : line.substring(cr + 1, end);
    }
}
