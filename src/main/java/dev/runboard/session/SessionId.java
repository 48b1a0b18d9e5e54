package dev.runboard.session;

import java.util.regex.Pattern;

/**
 * What a session id may look like. Ids name folders ({@code sessions/<id>/}) and files
 * ({@code artifacts/<id>.log}), so an id read from disk or typed by a person must never reach
 * outside those folders: letters, digits, {@code .}, {@code _} and {@code -}, starting with a
 * letter or digit, without {@code ..}, at most 128 characters. The engine's ids
 * ({@code 20261129-191512-3f9a0c}) are of this shape.
 */
public final class SessionId {
    public static final int MAX_LENGTH = 128;
    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0," + (MAX_LENGTH - 1) + "}");

    private SessionId() {
    }

    public static boolean isValid(String id) {
        return id != null && SHAPE.matcher(id).matches() && !id.contains("..");
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
}
