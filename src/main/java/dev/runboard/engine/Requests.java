package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.store.Json;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The requests' one codec: a line of the protocol into its {@link Request} record (decoded once, by
 * Jackson, into the record its {@code op} names), and a record into the line a client sends:
 * {@code {"v":VERSION,"op":NAME,...its fields}}, fields in the record's order, snake_case, an absent
 * (null) one left out. The Perl clients write the same bytes for the requests they send
 * (RequestCorpusTest). A request's record names the record of its reply ({@code Request<KillRequest.Reply>}),
 * which {@link #replyType} finds for the client that reads it.
 */
final class Requests {
    /** Every request's record by its name on the wire, in {@link Request}'s order. */
    @SuppressWarnings("rawtypes")
    static final Map<String, Class<? extends Request>> BY_OP;

    static {
        @SuppressWarnings("rawtypes")
        Map<String, Class<? extends Request>> byOp = new LinkedHashMap<>();
        for (Class<?> type : Request.class.getPermittedSubclasses()) {
            byOp.put(op(type), type.asSubclass(Request.class));
        }
        BY_OP = Collections.unmodifiableMap(byOp);
    }

    /** Each request's reply record, the type argument of its {@code Request<...>}. */
    private static final ClassValue<Class<? extends Protocol.Reply>> REPLY_TYPES = new ClassValue<>() {
        @Override
        protected Class<? extends Protocol.Reply> computeValue(Class<?> type) {
            for (Type implemented : type.getGenericInterfaces()) {
                if (implemented instanceof ParameterizedType p && p.getRawType() == Request.class
                        && p.getActualTypeArguments()[0] instanceof Class<?> reply) {
                    return reply.asSubclass(Protocol.Reply.class);
                }
            }
            throw new IllegalStateException(type.getSimpleName() + " does not name its reply's record (Request<...>)");
        }
    };

    private Requests() {
    }

    /** The record a request of this type is answered with. */
    static Class<? extends Protocol.Reply> replyType(Class<?> requestType) {
        return REPLY_TYPES.get(requestType);
    }

    /** The record {@code request} is answered with. */
    @SuppressWarnings("unchecked")
    static <R extends Protocol.Reply> Class<R> replyType(Request<R> request) {
        return (Class<R>) REPLY_TYPES.get(request.getClass());
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
    static Request<?> decode(JsonNode request) throws SupervisorRequests.Refused {
        JsonNode opNode = request.path("op");
        @SuppressWarnings("rawtypes")
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
    static byte[] encode(Request<?> request) {
        return Protocol.envelope("{\"v\":" + Protocol.VERSION + ",\"op\":\"" + op(request.getClass()) + "\"", request);
    }

    /** Sends the request on {@code out}. */
    static void send(java.io.OutputStream out, Request<?> request) throws IOException {
        out.write(encode(request));
        out.flush();
    }
}
