package dev.runboard.workspace;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import java.io.IOException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them in a workspace file: {@code 90s}, {@code 5m}, {@code 1h30m},
 * {@code 500ms}, a bare number of seconds, or ISO-8601 ({@code PT30S}). Written back in the short form.
 */
public final class DurationText {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|h|m|s)");

    private DurationText() {
    }

    /** Parses a duration; throws {@link IllegalArgumentException} with a sentence for people. */
    public static Duration parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        if (t.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(t));
        }
        if (t.startsWith("pt") || t.startsWith("p")) {
            try {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw invalid(text);
            }
        }
        Matcher m = PART.matcher(t.replace(" ", ""));
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                throw invalid(text);
            }
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "h" -> Duration.ofHours(n);
                case "m" -> Duration.ofMinutes(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ofMillis(n);
            });
            end = m.end();
        }
        if (end == 0 || end != t.replace(" ", "").length()) {
            throw invalid(text);
        }
        return total;
    }

    /** The short form: {@code 1h30m}, {@code 45s}, {@code 1500ms}, {@code 0s}. */
    public static String format(Duration d) {
        if (d.toMillisPart() != 0 || d.getNano() % 1_000_000 != 0) {
            return d.toMillis() + "ms";
        }
        if (d.isZero()) {
            return "0s";
        }
        StringBuilder sb = new StringBuilder();
        long h = d.toHours();
        if (h > 0) {
            sb.append(h).append('h');
        }
        if (d.toMinutesPart() > 0) {
            sb.append(d.toMinutesPart()).append('m');
        }
        if (d.toSecondsPart() > 0) {
            sb.append(d.toSecondsPart()).append('s');
        }
        return sb.toString();
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("'" + text + "' is not a duration (write e.g. 90s, 5m, 1h30m or 500ms)");
    }

    /** Jackson reader: a bad duration fails with the parser's line and column. */
    public static final class Reader extends JsonDeserializer<Duration> {
        @Override
        public Duration deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String text = p.getValueAsString();
            if (text == null) {
                throw InvalidFormatException.from(p, "expected a duration such as 90s, 5m or 1h30m", p.getText(), Duration.class);
            }
            try {
                return parse(text);
            } catch (IllegalArgumentException e) {
                throw InvalidFormatException.from(p, e.getMessage(), text, Duration.class);
            }
        }
    }

    /** Jackson writer: the short form. */
    public static final class Writer extends JsonSerializer<Duration> {
        @Override
        public void serialize(Duration value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(format(value));
        }
    }
}
