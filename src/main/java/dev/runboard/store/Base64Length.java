package dev.runboard.store;

import java.util.Base64;

/**
 * What a record's base64 preview parts say without decoding them whole: how many bytes they hold
 * (checked as {@link Base64#getDecoder()} would check them) and their last bytes. A history of
 * 10,000 records decoded every part twice on load only to count and drop the bytes.
 */
final class Base64Length {
    private Base64Length() {
    }

    /** The decoded length of {@code base64} (0 for null); IllegalArgumentException where the basic decoder would refuse it. */
    static int of(String base64) {
        if (base64 == null) {
            return 0;
        }
        int end = base64.length();
        int padding = 0;
        while (end > 0 && base64.charAt(end - 1) == '=' && padding < 2) {
            end--;
            padding++;
        }
        for (int i = 0; i < end; i++) {
            if (!isAlphabet(base64.charAt(i))) {
                throw new IllegalArgumentException("Illegal base64 character " + Integer.toString(base64.charAt(i), 16));
            }
        }
        int rest = end % 4;
        if (rest == 1 || padding > 0 && (rest == 0 || rest + padding != 4)) {
            throw new IllegalArgumentException("Input byte array has wrong 4-byte ending unit");
        }
        return end / 4 * 3 + (rest == 0 ? 0 : rest - 1);
    }

    /**
     * At least the last {@code count} bytes of valid {@code base64} that decodes to {@code length}
     * bytes, and at most two more (decoding starts on a 3-byte group); all of it when shorter.
     */
    static byte[] decodeLast(String base64, int length, int count) {
        if (base64 == null || length == 0) {
            return new byte[0];
        }
        if (length <= count) {
            return Base64.getDecoder().decode(base64);
        }
        int firstGroup = (length - count) / 3;
        return Base64.getDecoder().decode(base64.substring(firstGroup * 4));
    }

    private static boolean isAlphabet(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/';
    }
}
