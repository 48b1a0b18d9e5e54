package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.runboard.store.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The requests' one codec: a line of the protocol into its {@link Request} record (decoded once, by
 * Jackson, into the record its {@code op} names), and a record into the line a client sends:
 * {@code {"v":VERSION,"op":NAME,...its fields}}, fields in the record's order, snake_case, an absent
 * (null) one left out. The Perl clients write the same bytes for the requests they send
 * (RequestCorpusTest).
 */
final class Requests {
    /** Every request's record by its name on the wire, in {@link Request}'s order. */
    static final Map<String, Class<? extends Request>> BY_OP;

    static {
        Map<String, Class<? extends Request>> byOp = new LinkedHashMap<>();
        for (Class<?> type : Request.class.getPermittedSubclasses()) {
            byOp.put(op(type), type.asSubclass(Request.class));
        }
        BY_OP = Collections.unmodifiableMap(byOp);
    }

    /** One line; a character outside the BMP as its UTF-8 bytes, as the Perl clients write it, not as two escapes. */
    private static final ObjectWriter FIELDS = Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT)
            .with(com.fasterxml.jackson.core.json.JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8);

    private Requests() {
    }

    /** A request's name on the wire. */
    static String op(Class<?> type) {
        JsonTypeName name = type.getAnnotation(JsonTypeName.class);
        if (name == null) {
            throw new IllegalStateException(type.getSimpleName() + " has no @JsonTypeName: its name on the wire");
        }
        return name.value();
    }

    /**
     * The record a request of this version names with its {@code op}; refused (a usage error, one line)
     * when the op is unknown or a field is not of its type. Fields a record lacks are ignored, as a reader of
     * newer records ignores them; a missing one is null (or false, 0), which its handler refuses if it must.
     */
    static Request decode(JsonNode request) throws SupervisorRequests.Refused {
        JsonNode opNode = request.path("op");
        Class<? extends Request> type = opNode.isTextual() ? BY_OP.get(opNode.asText()) : null;
        if (type == null) {
            // Quoted, at most 80 characters: a 4 MiB op is not sent back whole.
            throw new SupervisorRequests.Refused("unknown request " + dev.runboard.session.SessionId.quote(opNode.asText()));
        }
        try {
            return Json.mapper().treeToValue(request, type);
        } catch (JsonProcessingException e) {
            throw new SupervisorRequests.Refused("a malformed " + op(type) + " request: " + oneLine(e));
        }
    }

    /** Jackson's complaint as one short line: which field, and what it holds instead of what. */
    private static String oneLine(JsonProcessingException e) {
        String what = e.getOriginalMessage() == null ? e.toString() : e.getOriginalMessage();
        String field = "";
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            String name = m.getPath().get(0).getFieldName(); // the request's own field, not one inside it
            field = name == null ? "" : "'" + name + "': ";
        }
        String line = (field + what).lines().findFirst().orElse("").strip();
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    /** The request as the line a client sends, its newline included. */
    static byte[] encode(Request request) {
        byte[] fields;
        try {
            fields = FIELDS.writeValueAsBytes(request);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the " + op(request.getClass()) + " request", e);
        }
        ByteArrayOutputStream line = new ByteArrayOutputStream(fields.length + 32);
        line.writeBytes(("{\"v\":" + Protocol.VERSION + ",\"op\":\"" + op(request.getClass()) + "\"")
                .getBytes(StandardCharsets.US_ASCII));
        if (fields.length > 2) { // more than {}
            line.write(',');
            line.write(fields, 1, fields.length - 1);
        } else {
            line.write('}');
        }
        line.write('\n');
        return line.toByteArray();
    }

    /** Sends the request on {@code out}. */
    static void send(java.io.OutputStream out, Request request) throws IOException {
        out.write(encode(request));
        out.flush();
    }
}
