package dev.runboard.session;

import java.util.List;

/**
 * What a session id may look like. Ids name folders ({@code sessions/<id>/}) and files
 * ({@code artifacts/<id>.log}), so an id read from disk or typed by a person must never reach
 * outside those folders: letters, digits, {@code .}, {@code _} and {@code -}, starting with a
 * letter or digit, without {@code ..}, at most 128 characters. The engine's ids
 * ({@code 20261129-191512-3f9a0c}) are of this shape.
 */
public final class SessionId {
    public static final int MAX_LENGTH = 128;

    private SessionId() {
    }

    /**
     * {@code [A-Za-z0-9][A-Za-z0-9._-]{0,127}} without {@code ..}, read by hand: the pattern's compiling
     * was a visible part of the time before exec's command starts (docs/BENCHMARKS.md §10).
     */
    public static boolean isValid(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_LENGTH || !letterOrDigit(id.charAt(0))) {
            return false;
        }
        for (int i = 1; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(letterOrDigit(c) || c == '_' || c == '-' || c == '.' && id.charAt(i - 1) != '.')) {
                return false;
            }
        }
        return true;
    }

    private static boolean letterOrDigit(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    /** The id, or an {@link IllegalArgumentException} saying why it cannot be one. */
    public static String require(String id) {
        if (!isValid(id)) {
            throw new IllegalArgumentException(quote(id) + " is not a session id (letters, digits, '.', '_' and '-' only,"
                    + " at most " + MAX_LENGTH + ")");
        }
        return id;
    }

    /** The text quoted for a message, with control characters escaped and at most 80 characters shown. */
    public static String quote(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("'");
        text.codePoints().limit(80).forEach(c -> {
            if (Character.isISOControl(c)) {
                sb.append(String.format("\\u%04x", c));
            } else {
                sb.appendCodePoint(c);
            }
        });
        return sb.append(text.codePointCount(0, text.length()) > 80 ? "…'" : "'").toString();
    }

    /**
     * "X matches 3 sessions (a, b, c); give more of the id": the ids named, so the person can pick
     * one without a list (up to five, oldest first as listed, then how many more).
     */
    public static String ambiguous(String given, List<String> ids) {
        int shown = Math.min(ids.size(), 5);
        return given + " matches " + ids.size() + " sessions (" + String.join(", ", ids.subList(0, shown))
                + (ids.size() > shown ? ", and " + (ids.size() - shown) + " more" : "") + "); give more of the id";
    }
}
