package dev.runboard.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
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
 * runboard's one JSON codec, Jackson, configured once: ISO-8601 instants, pretty output for people,
 * tolerant reading of newer files, and the session package's JSON names ({@link #sessionNames}),
 * which the domain does not carry itself. Readers and writers are made once per type, at first use.
 */
public final class Json {
    /**
     * The longest string read: a record holds its preview as base64, and a preview bound of
     * {@link SessionSpec#MAX_PREVIEW_BYTES} (16 MiB, all of it in one part when the output fit) is
     * 22.4 million characters, above Jackson's default limit of 20 million. Longer strings are not
     * something runboard wrote.
     */
    static final int MAX_STRING_CHARS = (SessionSpec.MAX_PREVIEW_BYTES + 2) / 3 * 4 + 4096;

    /** The mapper, built at its first use, by the thread that first needs it ({@link #prepareWriters}). */
    private static final class Mapper {
        static final ObjectMapper MAPPER = sessionNames(JsonMapper.builder(JsonFactory.builder()
                        .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(MAX_STRING_CHARS).build())
                        // A character beyond the BMP as its four UTF-8 bytes, as into a String: not as two escapes.
                        .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
                        .build()))
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .addModule(new SimpleModule("runboard-times").addSerializer(java.time.Instant.class, new InstantWriter()))
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .build();
    }

    private Json() {
    }

    /**
     * A string holding a lone surrogate (a byte that is not UTF-8, {@link dev.runboard.session.RawText}:
     * an environment value, a folder's name) is written with it as a JSON escape (a "u" escape of the lone half),
     * which reads back exactly: Jackson alone writes '?', and the byte would be lost from the record.
     * The text around it is escaped by Jackson's own encoder; every other string is Jackson's, unchanged.
     */
    private static final class RawStringWriter extends StdSerializer<String> {
        RawStringWriter() {
            super(String.class);
        }

        @Override
        public void serialize(String s, JsonGenerator g, SerializerProvider p) throws IOException {
            int lone = loneSurrogateAt(s, 0);
            if (lone < 0) {
                g.writeString(s);
                return;
            }
            StringBuilder quoted = new StringBuilder(s.length() + 16).append('"');
            int from = 0;
            for (; lone >= 0; lone = loneSurrogateAt(s, from)) {
                JsonStringEncoder.getInstance().quoteAsString(s.subSequence(from, lone), quoted);
                quoted.append(String.format("\\u%04x", (int) s.charAt(lone)));
                from = lone + 1;
            }
            JsonStringEncoder.getInstance().quoteAsString(s.subSequence(from, s.length()), quoted);
            g.writeRawValue(quoted.append('"').toString());
        }

        /** The index of the first surrogate at or after {@code from} that is not half of a pair, or -1. */
        private static int loneSurrogateAt(String s, int from) {
            for (int i = from; i < s.length(); i++) {
                char c = s.charAt(i);
                if (Character.isSurrogate(c)) {
                    if (!Character.isHighSurrogate(c) || i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                        return i;
                    }
                    i++;
                }
            }
            return -1;
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
        words.setSerializerModifier(new Utf8Properties());
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

    /**
     * A time as {@link java.time.Instant#toString} writes it, which is what the JSR-310 writer writes
     * with timestamps off (as here), without starting {@code DateTimeFormatter} (~3 ms of CPU in the
     * record of a fresh exec).
     */
    private static final class InstantWriter extends StdSerializer<java.time.Instant> {
        InstantWriter() {
            super(java.time.Instant.class);
        }

        @Override
        public void serialize(java.time.Instant at, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeString(InstantText.format(at));
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
        return Mapper.MAPPER;
    }

    /**
     * One writer per type, made at its first use, which finds the type's serializer: a thread that asks
     * while another makes it waits for that one (no second introspection of the same type).
     */
    private static final java.util.concurrent.ConcurrentHashMap<Class<?>, ObjectWriter> WRITERS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** One reader per type, made at its first use. */
    private static final ClassValue<ObjectReader> READERS = new ClassValue<>() {
        @Override
        protected ObjectReader computeValue(Class<?> type) {
            return Mapper.MAPPER.readerFor(type);
        }
    };

    /** The writer of values of exactly this type, as {@link #write} lays them out. */
    public static ObjectWriter writerFor(Class<?> type) {
        ObjectWriter known = WRITERS.get(type);
        return known != null ? known : WRITERS.computeIfAbsent(type, t -> Mapper.MAPPER.writerFor(t));
    }

    /**
     * Makes these types' writers on a thread of their own, now: Jackson's first introspection of a
     * record costs a fresh JVM about as much CPU as picocli's reading of exec's options, and on two
     * cores the two run side by side (docs/BENCHMARKS.md §17, "One JSON codec"). A writer asked for
     * meanwhile is waited for, not made twice.
     */
    public static void prepareWriters(Class<?>... types) {
        Thread prepare = new Thread(() -> {
            for (Class<?> type : types) {
                writerFor(type);
            }
        }, "runboard-json-prepare");
        prepare.setDaemon(true);
        prepare.start();
    }

    public static ObjectReader readerFor(Class<?> type) {
        return READERS.get(type);
    }

    public static String write(Object value) {
        try {
            return Mapper.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON for " + value.getClass().getSimpleName(), e);
        }
    }

    /**
     * {@link #write}'s JSON as UTF-8 bytes, written as bytes: a record's preview and a snapshot's
     * output go from their own bytes to the JSON ({@link Utf8Properties}), never made a String.
     */
    public static byte[] writeBytes(Object value) {
        try {
            return writerFor(value.getClass()).writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON for " + value.getClass().getSimpleName(), e);
        }
    }
}
