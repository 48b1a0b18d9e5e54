package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The last line found line by line from the end says what decoding the whole last window and
 * splitting it says, whatever the bytes: invalid UTF-8 (also just before a newline), NULs, ANSI
 * escapes, carriage returns, blank and escape-only lines, and windows cut inside a character.
 */
class LastLineTest {
    private static final String[] PIECES = {"ascii", "── ✓ ünïcödé 日本語", "🚀", "\u001b[31mred\u001b[0m", "\u001b]0;title\u0007",
        "\u001b[K", " ", "\t", "\r", "\n", "\n", "\n\n", "\u0000"};

    @Test
    void sameAsDecodingTheWholeWindow() {
        Random random = new Random(11);
        for (int trial = 0; trial < 3_000; trial++) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int pieces = random.nextInt(trial % 10 == 0 ? 2_000 : 40);
            for (int i = 0; i < pieces; i++) {
                if (random.nextInt(12) == 0) {
                    out.write(0x80 + random.nextInt(0x80)); // a stray byte: invalid UTF-8
                    if (random.nextBoolean()) {
                        out.write(0xE2); // a sequence cut short
                    }
                } else {
                    out.writeBytes(PIECES[random.nextInt(PIECES.length)].getBytes(StandardCharsets.UTF_8));
                }
            }
            byte[] bytes = out.toByteArray();
            OutputPreview preview = OutputPreview.of(bytes, 1 << 20);
            assertEquals(oldLastLine(bytes), preview.lastLine(), "trial " + trial + ": " + java.util.HexFormat.of().formatHex(bytes));
        }
    }

    /**
     * The algorithm before lines were decoded one by one (decode the last 4 KiB whole, then split), each
     * line as a terminal leaves it: escapes gone, then only what follows its last carriage return that
     * wrote something visible.
     */
    private static String oldLastLine(byte[] end) {
        int from = Math.max(0, end.length - 4096);
        while (from > 0 && from < end.length && (end[from] & 0xC0) == 0x80) {
            from++;
        }
        String t = OutputPreview.decode(java.util.Arrays.copyOfRange(end, from, end.length));
        int stop = t.length();
        while (stop > 0) {
            int start = t.lastIndexOf('\n', stop - 1) + 1;
            String line = afterLastVisibleRewrite(AnsiText.strip(t.substring(start, stop))).strip();
            if (!line.isEmpty()) {
                return line;
            }
            stop = start - 1;
        }
        return "";
    }

    private static String afterLastVisibleRewrite(String line) {
        String[] rewrites = line.split("\r", -1);
        for (int i = rewrites.length - 1; i >= 0; i--) {
            if (!rewrites[i].isBlank()) {
                return rewrites[i];
            }
        }
        return "";
    }
}
