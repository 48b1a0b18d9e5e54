package dev.runboard.store;

import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionStatus;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON into runboard's records as {@link Json}'s mapper reads it, without Jackson's databind:
 * a window opening 10,000 rows spent most of a second in Jackson's parser and binders before the
 * JIT had compiled them (docs/BENCHMARKS.md §14); this reader's few small loops are compiled within
 * the first rows. It binds what the records of a history are made of: records through their
 * canonical constructor, named as {@link LeanJson} names them; strings, numbers, booleans,
 * instants, lists, string-keyed maps, enums by their names, and the two {@link Json} reads as
 * words. It is strict where Jackson is lenient: anything else (a number where a string is expected,
 * a {@code Duration}, another annotation, bytes that are not JSON) is {@link Unreadable}, and the
 * caller asks Jackson, so what is read never differs (LeanJsonReaderTest holds the two side by side).
 */
final class LeanJsonReader {
    /** Not read here as Jackson would read it: the caller reads the same bytes with Jackson. */
    static final class Unreadable extends RuntimeException {
        Unreadable(String what) {
            super(what, null, false, false);
        }
    }

    private final byte[] in;
    private final int end;
    private int at;

    private LeanJsonReader(byte[] in, int from, int to) {
        this.in = in;
        this.at = from;
        this.end = to;
    }

    /** Every value of {@code bytes[from, to)}, separated by whitespace (JSON lines), read as {@code type}. */
    static <T> List<T> readValues(byte[] bytes, int from, int to, Class<T> type) {
        LeanJsonReader reader = new LeanJsonReader(bytes, from, to);
        List<T> values = new ArrayList<>();
        reader.skipSpace();
        while (reader.at < reader.end) {
            values.add(type.cast(reader.value(type)));
            reader.skipSpace();
        }
        return values;
    }

    private Object value(Type type) {
        skipSpace();
        if (peek() == 'n') {
            literal("null");
            return null;
        }
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : type instanceof Class<?> c ? c : null;
        if (raw == null) {
            throw new Unreadable("the type " + type);
        }
        if (raw == String.class) {
            return string();
        } else if (raw == long.class || raw == Long.class) {
            return integral(Long.MIN_VALUE, Long.MAX_VALUE);
        } else if (raw == int.class || raw == Integer.class) {
            return (int) integral(Integer.MIN_VALUE, Integer.MAX_VALUE);
        } else if (raw == double.class || raw == Double.class) {
            return decimal();
        } else if (raw == boolean.class || raw == Boolean.class) {
            return bool();
        } else if (raw == Instant.class) {
            return instant(string());
        } else if (raw == SessionStatus.class) {
            return word(string(), SessionStatus::fromWord);
        } else if (raw == OutputRule.Action.class) {
            return word(string(), OutputRule.Action::parse);
        } else if (raw.isEnum()) {
            return LeanRecordShape.enumConstant(raw, string());
        } else if (raw == List.class) {
            return list(elementType(type, 0));
        } else if (raw == Map.class) {
            if (elementType(type, 0) != String.class) {
                throw new Unreadable("a map whose keys are not strings");
            }
            return map(elementType(type, 1));
        } else if (raw.isRecord()) {
            return record(LeanRecordShape.of(raw));
        }
        throw new Unreadable("the type " + raw.getName());
    }

    private static Type elementType(Type type, int i) {
        if (type instanceof ParameterizedType p) {
            return p.getActualTypeArguments()[i];
        }
        throw new Unreadable("a raw " + type);
    }

    private Object record(LeanRecordShape shape) {
        Object[] args = shape.defaults().clone();
        members(name -> {
            Integer i = shape.index().get(name);
            if (i == null) {
                skipValue(); // unknown properties are skipped, as Json's mapper skips them
            } else {
                Object v = value(shape.types()[i]);
                args[i] = v == null ? shape.defaults()[i] : v; // null for a primitive: its zero, as Jackson gives
            }
        });
        return shape.create(args);
    }

    private List<Object> list(Type element) {
        List<Object> out = new ArrayList<>();
        elements(() -> out.add(value(element)));
        return out;
    }

    private Map<String, Object> map(Type valueType) {
        Map<String, Object> out = new LinkedHashMap<>();
        members(key -> out.put(key, value(valueType)));
        return out;
    }

    /** Any JSON value, checked and dropped. */
    private void skipValue() {
        skipSpace();
        switch (peek()) {
            case '{' -> members(name -> skipValue());
            case '[' -> elements(this::skipValue);
            case '"' -> string();
            case 't', 'f' -> bool();
            case 'n' -> literal("null");
            default -> numberText();
        }
    }

    /** An object: each member's name goes to {@code member}, which reads its value. */
    private void members(java.util.function.Consumer<String> member) {
        expect('{');
        skipSpace();
        if (!consumeIf('}')) {
            do {
                skipSpace();
                String name = string();
                skipSpace();
                expect(':');
                member.accept(name);
                skipSpace();
            } while (consumeIf(','));
            expect('}');
        }
    }

    /** An array: {@code element} reads each element. */
    private void elements(Runnable element) {
        expect('[');
        skipSpace();
        if (!consumeIf(']')) {
            do {
                element.run();
                skipSpace();
            } while (consumeIf(','));
            expect(']');
        }
    }

    /** A JSON string: runs without escapes are decoded whole (ASCII ones without a decoder). */
    private String string() {
        expect('"');
        StringBuilder escaped = null;
        int runFrom = at;
        boolean ascii = true;
        while (true) {
            if (at >= end) {
                throw new Unreadable("a string cut short");
            }
            byte b = in[at];
            if (b == '"') {
                String run = decode(runFrom, at, ascii);
                at++;
                return escaped == null ? run : escaped.append(run).toString();
            } else if (b == '\\') {
                escaped = (escaped == null ? new StringBuilder() : escaped).append(decode(runFrom, at, ascii));
                at++;
                escaped.append(escape());
                runFrom = at;
                ascii = true;
            } else if (b >= 0 && b < 0x20) {
                throw new Unreadable("a control character in a string");
            } else {
                ascii &= b >= 0;
                at++;
            }
        }
    }

    private String decode(int from, int to, boolean ascii) {
        if (ascii) {
            return new String(in, from, to - from, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(in, from, to - from)).toString();
        } catch (CharacterCodingException e) {
            throw new Unreadable("bytes that are not UTF-8");
        }
    }

    private char escape() {
        if (at >= end) {
            throw new Unreadable("an escape cut short");
        }
        byte b = in[at++];
        return switch (b) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '/' -> '/';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> {
                if (at + 4 > end) {
                    throw new Unreadable("an escape cut short");
                }
                int c = 0;
                for (int i = 0; i < 4; i++) {
                    int digit = Character.digit(in[at++], 16);
                    if (digit < 0) {
                        throw new Unreadable("a \\u escape that is not hexadecimal");
                    }
                    c = c << 4 | digit;
                }
                yield (char) c;
            }
            default -> throw new Unreadable("the escape \\" + (char) b);
        };
    }

    private long integral(long min, long max) {
        String text = numberText();
        long v;
        try {
            v = Long.parseLong(text); // a fraction or an exponent is refused here: Jackson would coerce or refuse it
        } catch (NumberFormatException e) {
            throw new Unreadable("a number that is not a long integer: " + text);
        }
        if (v < min || v > max) {
            throw new Unreadable("a number out of range: " + text);
        }
        return v;
    }

    private double decimal() {
        return Double.parseDouble(numberText());
    }

    /** The text of a JSON number, checked against JSON's grammar (no leading zeros, no bare dot). */
    private String numberText() {
        int from = at;
        consumeIf('-');
        if (consumeIf('0')) {
            // a lone zero: no digits may follow it
        } else if (!digits()) {
            throw new Unreadable("not a value");
        }
        if (consumeIf('.') && !digits()) {
            throw new Unreadable("a number cut short");
        }
        if (at < end && (in[at] == 'e' || in[at] == 'E')) {
            at++;
            if (!consumeIf('+')) {
                consumeIf('-');
            }
            if (!digits()) {
                throw new Unreadable("a number cut short");
            }
        }
        if (at < end && in[at] >= '0' && in[at] <= '9') {
            throw new Unreadable("a number with a leading zero");
        }
        return new String(in, from, at - from, StandardCharsets.ISO_8859_1);
    }

    private boolean digits() {
        int from = at;
        while (at < end && in[at] >= '0' && in[at] <= '9') {
            at++;
        }
        return at > from;
    }

    private boolean bool() {
        if (peek() == 't') {
            literal("true");
            return true;
        }
        literal("false");
        return false;
    }

    private void literal(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (at >= end || in[at] != word.charAt(i)) {
                throw new Unreadable("not " + word);
            }
            at++;
        }
    }

    private static Instant instant(String text) {
        Instant at = InstantText.canonical(text);
        if (at == null) {
            throw new Unreadable("an instant not in Instant.toString's form: " + text); // Jackson's leniencies are its own
        }
        return at;
    }

    private static <T> T word(String text, java.util.function.Function<String, T> parse) {
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            throw new Unreadable("an unknown word: " + text);
        }
    }

    private void skipSpace() {
        while (at < end && (in[at] == ' ' || in[at] == '\n' || in[at] == '\r' || in[at] == '\t')) {
            at++;
        }
    }

    private int peek() {
        if (at >= end) {
            throw new Unreadable("the end where a value was expected");
        }
        return in[at];
    }

    private void expect(char c) {
        if (!consumeIf(c)) {
            throw new Unreadable("a missing '" + c + "'");
        }
    }

    private boolean consumeIf(char c) {
        if (at < end && in[at] == c) {
            at++;
            return true;
        }
        return false;
    }
}
