package dev.runboard.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON for the quick {@code start} client, whose whole point is not loading Jackson
 * (a quarter of a second cold): writing strings, lists and maps of strings, and reading a flat
 * reply object of strings, numbers, booleans and nulls.
 */
final class FlatJson {
    private FlatJson() {
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c)) { // escaped: a lone one (RawText) has no UTF-8 form
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    static String list(List<String> items) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < items.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(quote(items.get(i)));
        }
        return sb.append(']').toString();
    }

    static String map(Map<String, String> entries) {
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, String> e : entries.entrySet()) {
            sb.append(first ? "" : ",").append(quote(e.getKey())).append(':').append(quote(e.getValue()));
            first = false;
        }
        return sb.append('}').toString();
    }

    /** The top-level scalar members of an object; nested values are skipped. Throws on malformed input. */
    static Map<String, String> readFlat(String json) {
        Reader r = new Reader(json);
        Map<String, String> out = new LinkedHashMap<>();
        r.expect('{');
        r.skipSpace();
        if (r.peek() == '}') {
            return out;
        }
        do {
            r.skipSpace();
            String key = r.string();
            r.skipSpace();
            r.expect(':');
            r.skipSpace();
            out.put(key, r.value());
            r.skipSpace();
        } while (r.accept(','));
        r.expect('}');
        return out;
    }

    private static final class Reader {
        private final String s;
        private int i;

        Reader(String s) {
            this.s = s;
        }

        char peek() {
            if (i >= s.length()) {
                throw new IllegalArgumentException("unexpected end of JSON");
            }
            return s.charAt(i);
        }

        void skipSpace() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        boolean accept(char c) {
            skipSpace();
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        void expect(char c) {
            if (!accept(c)) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i);
            }
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            for (char c; (c = s.charAt(i++)) != '"'; ) {
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> sb.append(e);
                }
            }
            return sb.toString();
        }

        /** A scalar as text (null for JSON null); an object or array is skipped and read as null. */
        String value() {
            char c = peek();
            if (c == '"') {
                return string();
            }
            if (c == '{' || c == '[') {
                skipNested();
                return null;
            }
            int start = i;
            while (i < s.length() && ",}] \n\r\t".indexOf(s.charAt(i)) < 0) {
                i++;
            }
            String word = s.substring(start, i);
            return word.equals("null") ? null : word;
        }

        private void skipNested() {
            int depth = 0;
            do {
                char c = s.charAt(i);
                if (c == '"') {
                    string();
                    continue;
                }
                if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    depth--;
                }
                i++;
            } while (depth > 0);
        }
    }
}
