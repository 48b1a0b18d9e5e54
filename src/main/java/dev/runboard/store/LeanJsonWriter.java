package dev.runboard.store;

import dev.runboard.session.TextAsUtf8;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link LeanJson}'s writer of one value, as Jackson's default pretty printer lays it out: into a
 * String, or into UTF-8 bytes, where a {@link TextAsUtf8} record's long text goes from its bytes to
 * the output without becoming a String (a 64 KiB preview whose one {@code …} made it UTF-16 cost
 * the end of an exec ~12 ms as text: docs/BENCHMARKS.md §10, round 14). Throws
 * {@link LeanJson.Unsupported} for anything only Jackson writes.
 */
final class LeanJsonWriter {
    private final StringBuilder out = new StringBuilder(1024);
    /** Bytes mode: what is written before what {@link #out} holds; null when writing a String. */
    private final ByteArrayOutputStream bytes;

    private LeanJsonWriter(ByteArrayOutputStream bytes) {
        this.bytes = bytes;
    }

    static String text(Object value) {
        LeanJsonWriter w = new LeanJsonWriter(null);
        w.value(value, 0);
        return w.out.toString();
    }

    static byte[] utf8(Object value) {
        LeanJsonWriter w = new LeanJsonWriter(new ByteArrayOutputStream(4096));
        w.value(value, 0);
        w.textToBytes();
        return w.bytes.toByteArray();
    }

    /** A string's UTF-8 bytes, as a {@link TextAsUtf8} gave them. */
    private record Utf8(byte[] bytes) {
    }

    private void value(Object v, int depth) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof String s) {
            string(s);
        } else if (v instanceof Utf8 u) {
            utf8String(u.bytes());
        } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short) {
            out.append(v);
        } else if (v instanceof Double d) {
            number(d.isNaN() || d.isInfinite(), d.toString());
        } else if (v instanceof Float f) {
            number(f.isNaN() || f.isInfinite(), f.toString());
        } else if (v instanceof Instant i) {
            string(InstantText.format(i)); // ISO_INSTANT, as Jackson's InstantSerializer writes it
        } else if (v instanceof Enum<?> e) {
            enumValue(e);
        } else if (v instanceof Collection<?> c) {
            array(c, depth);
        } else if (v instanceof Map<?, ?> m) {
            map(m, depth);
        } else if (v instanceof Record r) {
            object(r, depth);
        } else {
            throw new LeanJson.Unsupported(v.getClass().getName());
        }
    }

    /** Jackson writes NaN and the infinities as strings. */
    private void number(boolean quoted, String text) {
        if (quoted) {
            string(text);
        } else {
            out.append(text);
        }
    }

    private void enumValue(Enum<?> e) {
        if (e instanceof dev.runboard.session.SessionStatus status) {
            string(status.word()); // Json's "runboard-words" module writes a status as its word
            return;
        }
        Class<?> type = e.getDeclaringClass();
        String known = LeanJsonLayouts.ENUMS.get(type.getName());
        Method jsonValue;
        try {
            jsonValue = known == null ? LeanJson.jsonValueOf(type) : known.isEmpty() ? null : type.getMethod(known);
        } catch (NoSuchMethodException stale) {
            jsonValue = LeanJson.jsonValueOf(type);
        }
        if (jsonValue != null) {
            value(LeanJson.invoke(jsonValue, e), 0);
        } else {
            string(e.name());
        }
    }


    /** Jackson's default pretty printer: arrays on one line, "[ a, b ]", objects inside them indented. */
    private void array(Collection<?> c, int depth) {
        if (c.isEmpty()) {
            out.append("[ ]");
            return;
        }
        out.append("[ ");
        boolean first = true;
        for (Object item : c) {
            if (!first) {
                out.append(", ");
            }
            first = false;
            value(item, depth);
        }
        out.append(" ]");
    }

    private void map(Map<?, ?> m, int depth) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getKey() instanceof String key)) {
                throw new LeanJson.Unsupported("a map key that is not a string");
            }
            fields.put(key, e.getValue());
        }
        fields(fields, depth);
    }

    private void object(Record r, int depth) {
        Map<String, Object> fields = new LinkedHashMap<>();
        TextAsUtf8 asBytes = bytes != null && r instanceof TextAsUtf8 t ? t : null;
        for (LeanJson.Property p : LeanJson.propertiesOf(r.getClass())) {
            byte[] utf8 = asBytes == null ? null : asBytes.utf8Of(p.getter().getName());
            fields.put(p.name(), utf8 != null ? new Utf8(utf8) : LeanJson.invoke(p.getter(), r));
        }
        fields(fields, depth);
    }

    private void fields(Map<String, Object> fields, int depth) {
        if (fields.isEmpty()) {
            out.append("{ }");
            return;
        }
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> f : fields.entrySet()) {
            out.append(first ? "\n" : ",\n");
            first = false;
            indent(depth + 1);
            string(f.getKey());
            out.append(" : ");
            value(f.getValue(), depth + 1);
        }
        out.append('\n');
        indent(depth);
        out.append('}');
    }

    private void indent(int depth) {
        out.append("  ".repeat(depth));
    }

    /**
     * Jackson's escaping: quote, backslash and control characters; everything else as it is (UTF-8).
     * Runs of characters that need nothing are copied whole: a 64 KiB preview is written twice at the
     * end of an exec, whose code is mostly not compiled yet, and a call per character cost it ~20 ms
     * each time (docs/BENCHMARKS.md §10, round 5).
     */
    private void string(String s) {
        out.append('"');
        int n = s.length();
        char[] chars = n > 16 ? s.toCharArray() : null;
        int plainFrom = 0;
        for (int i = 0; i < n; i++) {
            char c = chars != null ? chars[i] : s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && (c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE)) {
                continue; // plain: copied with its run
            }
            out.append(s, plainFrom, i);
            if (c < ESCAPES.length) {
                out.append(ESCAPES[c]);
            } else if (!pairedAt(s, i)) {
                out.append(String.format("\\u%04x", (int) c)); // a byte that is not UTF-8 (RawText): an escape keeps it
            } else {
                out.append(c).append(s.charAt(++i)); // a surrogate pair, as it is
            }
            plainFrom = i + 1;
        }
        out.append(s, plainFrom, n);
        out.append('"');
    }

    /** {@code s} as a JSON string, escaped as this writer escapes it (store.Json writes a raw string with it). */
    static String quoted(String s) {
        LeanJsonWriter w = new LeanJsonWriter(null);
        w.string(s);
        return w.out.toString();
    }

    /**
     * A string given as its UTF-8 bytes, escaped as {@link #string} escapes its characters: only
     * ASCII bytes are ever escaped, and the bytes of a multi-byte character go as they are.
     */
    private void utf8String(byte[] s) {
        out.append('"');
        textToBytes();
        int plainFrom = 0;
        for (int i = 0; i < s.length; i++) {
            int c = s[i];
            if (c >= 0x20 ? c != '"' && c != '\\' : c < 0) {
                continue; // plain, or a byte of a multi-byte character: copied with its run
            }
            bytes.write(s, plainFrom, i - plainFrom);
            bytes.writeBytes(ESCAPED_BYTES[c]);
            plainFrom = i + 1;
        }
        bytes.write(s, plainFrom, s.length - plainFrom);
        out.append('"');
    }

    /** What {@link #out} holds so far, moved to {@link #bytes}. */
    private void textToBytes() {
        if (out.length() > 0) {
            bytes.writeBytes(out.toString().getBytes(StandardCharsets.UTF_8));
            out.setLength(0);
        }
    }

    /** Whether {@code s} holds a surrogate that is not half of a pair (which has no UTF-8 form of its own). */
    static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (!pairedAt(s, i)) {
                    return true;
                }
                i++;
            }
        }
        return false;
    }

    private static boolean pairedAt(String s, int i) {
        return Character.isHighSurrogate(s.charAt(i)) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }

    /** Jackson's escape of each character below the highest it escapes (a backslash), null for those it writes as they are. */
    private static final String[] ESCAPES = new String['\\' + 1];
    private static final byte[][] ESCAPED_BYTES = new byte[ESCAPES.length][];

    static {
        String hex = "0123456789ABCDEF";
        for (char c = 0; c < 0x20; c++) {
            ESCAPES[c] = new String(new char[] {'\\', 'u', '0', '0', hex.charAt(c >> 4), hex.charAt(c & 0xF)});
        }
        ESCAPES['\n'] = "\\n";
        ESCAPES['\r'] = "\\r";
        ESCAPES['\t'] = "\\t";
        ESCAPES['\b'] = "\\b";
        ESCAPES['\f'] = "\\f";
        ESCAPES['"'] = "\\\"";
        ESCAPES['\\'] = "\\\\";
        for (int c = 0; c < ESCAPES.length; c++) {
            ESCAPED_BYTES[c] = ESCAPES[c] == null ? null : ESCAPES[c].getBytes(StandardCharsets.US_ASCII);
        }
    }
}
