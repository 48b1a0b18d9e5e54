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
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private Json() {
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
