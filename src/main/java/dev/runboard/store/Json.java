package dev.runboard.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import java.io.IOException;
import java.util.function.Function;

/**
 * The one Jackson configuration: ISO-8601 instants, pretty output for people, tolerant reading of
 * newer files, and the session package's JSON names ({@link #sessionNames}), which the domain does
 * not carry itself.
 */
public final class Json {
    /**
     * The longest string read: a record holds its preview as base64, and a preview bound of
     * {@link SessionSpec#MAX_PREVIEW_BYTES} (16 MiB, all of it in one part when the output fit) is
     * 22.4 million characters, above Jackson's default limit of 20 million. Longer strings are not
     * something runboard wrote.
     */
    static final int MAX_STRING_CHARS = (SessionSpec.MAX_PREVIEW_BYTES + 2) / 3 * 4 + 4096;

    private static final ObjectMapper MAPPER = sessionNames(JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_STRING_CHARS).build())
                    .build()))
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private Json() {
    }

    /**
     * A string holding a lone surrogate (a byte that is not UTF-8, {@link dev.runboard.session.RawText}:
     * an environment value, a folder's name) is written with it as a JSON escape,
     * as LeanJson writes it: Jackson wrote '?' (the byte lost from the record), and an escape reads
     * back exactly. Every other string is Jackson's own, unchanged.
     */
    private static final class RawStringWriter extends StdSerializer<String> {
        RawStringWriter() {
            super(String.class);
        }

        @Override
        public void serialize(String s, JsonGenerator g, SerializerProvider p) throws IOException {
            if (LeanJsonWriter.hasLoneSurrogate(s)) {
                g.writeRawValue(LeanJsonWriter.quoted(s));
            } else {
                g.writeString(s);
            }
        }
    }

    /**
     * {@code builder} with the session package's JSON names: its records' field names and order
     * ({@link SessionMixIns}) and its words (a status is {@code running}; a rule's action reads
     * in either case). Every mapper runboard builds goes through here, so a session value reads
     * and prints the same whichever mapper meets it.
     */
    public static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B sessionNames(B builder) {
        SessionMixIns.BY_TARGET.forEach(builder::addMixIn);
        // The JSR-310 module first: a module added later wins, and the words' reader of times must.
        return builder.addModule(new JavaTimeModule()).addModule(sessionWords());
    }

    private static Module sessionWords() {
        SimpleModule words = new SimpleModule("runboard-words");
        words.addSerializer(SessionStatus.class, new StdSerializer<>(SessionStatus.class) {
            @Override
            public void serialize(SessionStatus s, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeString(s.word());
            }
        });
        words.addDeserializer(SessionStatus.class, new WordReader<>(SessionStatus.class, SessionStatus::fromWord));
        words.addDeserializer(OutputRule.Action.class, new WordReader<>(OutputRule.Action.class, OutputRule.Action::parse));
        words.addDeserializer(java.time.Instant.class, new InstantReader());
        words.addSerializer(String.class, new RawStringWriter());
        return words;
    }

    /**
     * A time as runboard writes it, text such as {@code 2026-12-06T10:00:00Z}, and nothing else: the
     * JSR-310 reader took a number for seconds since 1970 and read {@code "started_at": 1e300} as 1970
     * (a record then showed 499,043 hours elapsed); such a record is now refused as corrupt.
     */
    private static final class InstantReader extends StdDeserializer<java.time.Instant> {
        InstantReader() {
            super(java.time.Instant.class);
        }

        @Override
        public java.time.Instant deserialize(JsonParser p, DeserializationContext c) throws IOException {
            String text = p.getText();
            if (p.currentToken() != com.fasterxml.jackson.core.JsonToken.VALUE_STRING) {
                throw InvalidFormatException.from(p, "a time must be text such as 2026-12-06T10:00:00Z, not " + text, text,
                        handledType());
            }
            java.time.Instant at = InstantText.canonical(text);
            if (at != null) {
                return at;
            }
            try {
                return java.time.Instant.parse(text);
            } catch (java.time.format.DateTimeParseException e) {
                throw InvalidFormatException.from(p, "not a time such as 2026-12-06T10:00:00Z: " + text, text, handledType());
            }
        }
    }

    /** Reads a string through the domain's own parser; its refusal is Jackson's "invalid format", naming the value. */
    private static final class WordReader<T> extends StdDeserializer<T> {
        private final transient Function<String, T> parse;

        WordReader(Class<T> type, Function<String, T> parse) {
            super(type);
            this.parse = parse;
        }

        @Override
        public T deserialize(JsonParser p, DeserializationContext c) throws IOException {
            String text = p.getValueAsString();
            try {
                return parse.apply(text);
            } catch (IllegalArgumentException | NullPointerException e) {
                throw InvalidFormatException.from(p, e.getMessage(), text, handledType());
            }
        }
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON for " + value.getClass().getSimpleName(), e);
        }
    }
}
