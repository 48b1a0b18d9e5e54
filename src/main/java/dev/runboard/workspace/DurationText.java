package dev.runboard.workspace;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import dev.runboard.session.Durations;
import dev.runboard.session.SessionSpec;
import java.io.IOException;
import java.time.Duration;

/**
 * Durations in a workspace file, in runboard's one grammar ({@link Durations}: {@code 90s},
 * {@code 5m}, {@code 1h30m}, {@code 500ms}, a bare number of seconds, or ISO-8601), and the
 * Jackson reader and writer that apply it to {@code runboard.yaml}. Written back in the short form.
 */
public final class DurationText {

    private DurationText() {
    }

    /** Jackson reader: a bad duration fails with the parser's line and column. */
    public static class Reader extends JsonDeserializer<Duration> {
        @Override
        public Duration deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String text = p.getValueAsString();
            if (text == null) {
                throw InvalidFormatException.from(p, "expected a duration such as 90s, 5m, 1h30m or 2d", p.getText(), Duration.class);
            }
            try {
                return inRange(Durations.parse(text), text);
            } catch (IllegalArgumentException e) {
                throw InvalidFormatException.from(p, e.getMessage(), text, Duration.class);
            }
        }

        /** The field's range check, so that a value out of range is reported at the value itself. */
        Duration inRange(Duration d, String text) {
            return d;
        }
    }

    /** A session timeout: {@link SessionSpec#checkTimeout}'s range. */
    public static final class TimeoutReader extends Reader {
        @Override
        Duration inRange(Duration d, String text) {
            return SessionSpec.checkTimeout(d, "'timeout'", text);
        }
    }

    /** A kill grace: {@link SessionSpec#checkGrace}'s range. */
    public static final class GraceReader extends Reader {
        @Override
        Duration inRange(Duration d, String text) {
            return SessionSpec.checkGrace(d, "'grace'", text);
        }
    }

    /** Jackson writer: the short form. */
    public static final class Writer extends JsonSerializer<Duration> {
        @Override
        public void serialize(Duration value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(Durations.format(value));
        }
    }
}
