package dev.runboard.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.runboard.session.SessionSpec;

/** The one Jackson configuration: ISO-8601 instants, pretty output for people, tolerant reading of newer files. */
public final class Json {
    /**
     * The longest string read: a record holds its preview as base64, and a preview bound of
     * {@link SessionSpec#MAX_PREVIEW_BYTES} (16 MiB, all of it in one part when the output fit) is
     * 22.4 million characters, above Jackson's default limit of 20 million. Longer strings are not
     * something runboard wrote.
     */
    static final int MAX_STRING_CHARS = (SessionSpec.MAX_PREVIEW_BYTES + 2) / 3 * 4 + 4096;

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_STRING_CHARS).build())
                    .build())
            .addModule(new JavaTimeModule())
            .addModule(sessionWords())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private Json() {
    }

    /** The domain's words in JSON, so the session package needs no Jackson: a status is its word ({@code running}). */
    private static com.fasterxml.jackson.databind.Module sessionWords() {
        com.fasterxml.jackson.databind.module.SimpleModule words = new com.fasterxml.jackson.databind.module.SimpleModule("runboard-words");
        words.addSerializer(dev.runboard.session.SessionStatus.class,
                new com.fasterxml.jackson.databind.ser.std.StdSerializer<>(dev.runboard.session.SessionStatus.class) {
                    @Override
                    public void serialize(dev.runboard.session.SessionStatus s, com.fasterxml.jackson.core.JsonGenerator g,
                                          com.fasterxml.jackson.databind.SerializerProvider p) throws java.io.IOException {
                        g.writeString(s.word());
                    }
                });
        words.addDeserializer(dev.runboard.session.SessionStatus.class,
                new com.fasterxml.jackson.databind.deser.std.StdDeserializer<>(dev.runboard.session.SessionStatus.class) {
                    @Override
                    public dev.runboard.session.SessionStatus deserialize(com.fasterxml.jackson.core.JsonParser p,
                            com.fasterxml.jackson.databind.DeserializationContext c) throws java.io.IOException {
                        try {
                            return dev.runboard.session.SessionStatus.fromWord(p.getValueAsString());
                        } catch (IllegalArgumentException e) {
                            throw com.fasterxml.jackson.databind.exc.InvalidFormatException.from(p, e.getMessage(),
                                    p.getValueAsString(), dev.runboard.session.SessionStatus.class);
                        }
                    }
                });
        return words;
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON for " + value.getClass().getSimpleName(), e);
        }
    }
}
