package dev.runboard.workspace;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import java.io.IOException;

/**
 * {@code backoff.limit}: a number of restarts (0: none) or {@code unlimited}, read and written as
 * a person writes it. A bad value fails at its own line, saying both forms.
 */
public final class RestartLimitText {
    static final String UNLIMITED = "unlimited";

    private RestartLimitText() {
    }

    public static final class Reader extends JsonDeserializer<Integer> {
        @Override
        public Integer deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && p.getIntValue() >= 0) {
                return p.getIntValue();
            }
            String text = p.getValueAsString();
            if (text != null && text.strip().equalsIgnoreCase(UNLIMITED)) {
                return RestartBackoff.UNLIMITED;
            }
            if (text != null && text.strip().matches("\\d{1,9}")) {
                return Integer.parseInt(text.strip());
            }
            throw InvalidFormatException.from(p, "'limit' is a number of restarts (0: none) or unlimited, not '" + p.getText() + "'",
                    p.getText(), RestartLimitText.class);
        }
    }

    public static final class Writer extends JsonSerializer<Integer> {
        @Override
        public void serialize(Integer value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            if (value == RestartBackoff.UNLIMITED) {
                gen.writeString(UNLIMITED);
            } else {
                gen.writeNumber(value);
            }
        }
    }
}
