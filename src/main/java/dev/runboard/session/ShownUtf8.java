package dev.runboard.session;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Output bytes as the preview shows them, still in UTF-8: exactly
 * {@code OutputPreview.decode(bytes).getBytes(UTF_8)} (invalid sequences and NULs as U+FFFD), made
 * without decoding the runs of plain ASCII, which are most of any output. exec prints a 64 KiB
 * preview once its command has ended, with its code not yet compiled: decoding it to text and
 * encoding it back cost that wait ~12 ms (docs/BENCHMARKS.md §10, round 14). ShownUtf8Test holds
 * the two side by side.
 */
final class ShownUtf8 {
    private static final byte[] REPLACEMENT = "\uFFFD".getBytes(StandardCharsets.UTF_8);

    private ShownUtf8() {
    }

    /** The shown bytes of {@code bytes}: {@code bytes} itself when they are plain ASCII without NUL. */
    static byte[] of(byte[] bytes) {
        int n = bytes.length;
        int i = 0;
        while (i < n && bytes[i] > 0) {
            i++;
        }
        if (i == n) {
            return bytes;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(n + 64);
        out.write(bytes, 0, i);
        while (i < n) {
            int from = i;
            if (bytes[i] > 0) {
                while (i < n && bytes[i] > 0) {
                    i++;
                }
                out.write(bytes, from, i - from);
            } else if (bytes[i] == 0) {
                out.writeBytes(REPLACEMENT);
                i++;
            } else {
                // A run of non-ASCII bytes with the ASCII byte after it, decoded alone: the decoder is back in step
                // after any ASCII byte (it is never part of a sequence, valid or not), so this gives the characters
                // decoding the whole would.
                while (i < n && bytes[i] < 0) {
                    i++;
                }
                i = Math.min(i + 1, n);
                out.writeBytes(OutputPreview.decode(java.util.Arrays.copyOfRange(bytes, from, i)).getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toByteArray();
    }
}
