package dev.runboard.workspace;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Sizes;
import java.io.IOException;

/**
 * {@code max_output} in a workspace file, in runboard's one size grammar ({@link Sizes}: {@code 50M},
 * {@code 1G}, a bare number of bytes); written back in the short form.
 */
public final class SizeText {

    private SizeText() {
    }

    /** Jackson reader: a bad size, or one below {@link SessionSpec#MIN_MAX_OUTPUT}, fails at the value's line and column. */
    public static final class MaxOutputReader extends JsonDeserializer<Long> {
        @Override
        public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String text = p.getValueAsString();
            if (text == null) {
                throw InvalidFormatException.from(p, "expected a size such as 50M or 1G", p.getText(), SizeText.class);
            }
            try {
                return SessionSpec.checkMaxOutput(Sizes.parse(text), "'max_output'", text);
            } catch (IllegalArgumentException e) {
                throw InvalidFormatException.from(p, e.getMessage(), text, SizeText.class); // (a message for people: WorkspaceYaml)
            }
        }
    }

    /** Jackson writer: the short form ({@code 50M}). */
    public static final class Writer extends JsonSerializer<Long> {
        @Override
        public void serialize(Long value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(Sizes.formatShort(value));
        }
    }
}
