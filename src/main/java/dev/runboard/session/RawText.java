package dev.runboard.session;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Bytes that may not be UTF-8 (an environment value, a folder's name) carried in a Java String
 * without loss, as Python's "surrogateescape" does: valid UTF-8 decodes as usual, and each byte of
 * an invalid sequence becomes the lone low surrogate U+DC80..U+DCFF, which {@link #encode} turns back
 * into that byte. Java's own decoding (of {@code System.getenv}, of {@code main}'s arguments, of a
 * path's name) puts U+FFFD there instead, and the byte is lost: a non-UTF-8 environment value reached
 * the command as U+FFFD, and a folder with such a name "did not exist".
 */
public final class RawText {
    private static final char FIRST = '\uDC80';
    private static final char LAST = '\uDCFF';

    private RawText() {
    }

    /** The bytes as text: UTF-8 where they are, each other byte as its escape. */
    public static String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    public static String decode(byte[] b, int from, int to) {
        StringBuilder out = new StringBuilder(to - from);
        int i = from;
        while (i < to) {
            int c = b[i] & 0xff;
            int n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
            if (n == 1) {
                out.append((char) c);
                i++;
                continue;
            }
            if (n == 0 || i + n > to || !continuation(b, i, n)) {
                out.append((char) (0xDC00 | c)); // one byte of an invalid sequence: the rest is looked at again
                i++;
                continue;
            }
            out.append(new String(b, i, n, StandardCharsets.UTF_8));
            i += n;
        }
        return out.toString();
    }

    /** Whether {@code b[i..i+n)} is a well-formed UTF-8 sequence (no overlong form, no surrogate, at most U+10FFFF). */
    private static boolean continuation(byte[] b, int i, int n) {
        for (int k = 1; k < n; k++) {
            if ((b[i + k] & 0xc0) != 0x80) {
                return false;
            }
        }
        int c0 = b[i] & 0xff;
        int c1 = b[i + 1] & 0xff;
        if (n == 3) {
            return !(c0 == 0xe0 && c1 < 0xa0) && !(c0 == 0xed && c1 >= 0xa0); // overlong; a surrogate's encoding
        }
        if (n == 4) {
            return !(c0 == 0xf0 && c1 < 0x90) && !(c0 == 0xf4 && c1 >= 0x90); // overlong; above U+10FFFF
        }
        return true;
    }

    /**
     * The NUL-ended words of {@code bytes} (as /proc gives an environment or a command line), each as
     * {@link #decode} reads it; what follows the last NUL, if anything, is a word too.
     */
    public static java.util.List<String> words(byte[] bytes) {
        java.util.List<String> words = new java.util.ArrayList<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length ? i > start : bytes[i] == 0) {
                words.add(decode(bytes, start, i));
                start = i + 1;
            }
        }
        return words;
    }

    /** The bytes the text stands for: UTF-8, each escape its own byte. */
    public static byte[] encode(String text) {
        if (!isRaw(text)) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 8);
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (escape(text, i)) {
                out.writeBytes(text.substring(start, i).getBytes(StandardCharsets.UTF_8));
                out.write(text.charAt(i) & 0xff);
                start = i + 1;
            }
        }
        out.writeBytes(text.substring(start).getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** Whether the text holds a byte that is not UTF-8 (an escape); such text must travel as bytes. */
    public static boolean isRaw(String text) {
        if (text == null) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (escape(text, i)) {
                return true;
            }
        }
        return false;
    }

    /** The text for people: each escaped byte shown as U+FFFD, as Java itself would have read it. */
    public static String display(String text) {
        if (!isRaw(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text);
        for (int i = 0; i < out.length(); i++) {
            if (escape(text, i)) {
                out.setCharAt(i, '\uFFFD');
            }
        }
        return out.toString();
    }

    /** A lone low surrogate in the escape range (not the second half of a pair). */
    private static boolean escape(String text, int i) {
        char c = text.charAt(i);
        return c >= FIRST && c <= LAST && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
    }
}
