package dev.runboard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.store.Json;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The protocol's one schema (src/main/resources/dev/runboard/engine/protocol-schema.json) and a validator
 * of the part of JSON Schema it uses: {@code $ref} (local), {@code oneOf}, {@code const}, {@code type},
 * {@code properties}, {@code required}, {@code additionalProperties}, {@code items}, {@code pattern},
 * {@code minLength}, {@code maxLength}, {@code minItems}, {@code minimum}. A keyword it does not know fails the
 * validation, so the schema cannot say more than is checked.
 */
final class ProtocolSchema {
    private static final List<String> KNOWN = List.of("$schema", "$id", "title", "description", "version", "$defs", "$ref",
            "oneOf", "const", "type", "properties", "required", "additionalProperties", "items", "pattern", "minLength",
            "maxLength", "minItems", "minimum");

    private final JsonNode root;

    private ProtocolSchema(JsonNode root) {
        this.root = root;
    }

    static ProtocolSchema load() throws IOException {
        try (InputStream in = Request.class.getResourceAsStream("protocol-schema.json")) {
            return new ProtocolSchema(Json.mapper().readTree(in));
        }
    }

    JsonNode root() {
        return root;
    }

    /** The definition of request {@code op}. */
    JsonNode request(String op) {
        return root.path("$defs").path(op);
    }

    /** The definition of the reply to request {@code op} ({@code reply_OP}), its {@code $ref} followed. */
    JsonNode reply(String op) {
        return definition("reply_" + op);
    }

    /** The definition {@code name} of {@code $defs}, its {@code $ref}s followed. */
    JsonNode definition(String name) {
        JsonNode d = root.path("$defs").path(name);
        while (d.has("$ref")) {
            d = root.at(d.get("$ref").asText().substring(1));
        }
        return d;
    }

    /**
     * What is wrong with {@code message} as a line the supervisor sends for request {@code op}: a heartbeat, a
     * frame of a cli request's output, a refusal ({@code ok} false), or else the request's reply ({@code reply_OP}).
     * Empty when it is one.
     */
    List<String> replyProblems(String op, JsonNode message) {
        String name = message.has("heartbeat") ? "heartbeat"
                : op.equals("cli") && (message.has("out") || message.has("err") || message.has("want_in")) ? "cli_frame"
                : message.path("ok").asBoolean() ? "reply_" + op : "refusal";
        List<String> out = new ArrayList<>();
        if (root.path("$defs").path(name).isMissingNode()) {
            out.add("the schema has no " + name);
        } else {
            check(root.path("$defs").path(name), message, name, out);
        }
        return out;
    }

    /** What is wrong with {@code message} as a request; empty when it is one. */
    List<String> problems(JsonNode message) {
        List<String> out = new ArrayList<>();
        check(root, message, "$", out);
        return out;
    }

    private void check(JsonNode schema, JsonNode value, String at, List<String> out) {
        for (Iterator<String> keys = schema.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!KNOWN.contains(key)) {
                out.add(at + ": the schema uses '" + key + "', which this validator does not check");
            }
        }
        if (schema.has("$ref")) {
            String ref = schema.get("$ref").asText();
            JsonNode target = root.at(ref.substring(1));
            if (target.isMissingNode()) {
                out.add(at + ": no " + ref + " in the schema");
                return;
            }
            check(target, value, at, out);
        }
        if (schema.has("oneOf")) {
            int matching = 0;
            List<String> nearest = null;
            for (JsonNode option : schema.get("oneOf")) {
                List<String> p = new ArrayList<>();
                check(option, value, at, p);
                if (p.isEmpty()) {
                    matching++;
                } else if (option.has("$ref") && value.path("op").asText().equals(option.get("$ref").asText()
                        .substring("#/$defs/".length()))) {
                    nearest = p; // the definition of the op it names: its problems are the useful ones
                }
            }
            if (matching != 1) {
                out.add(at + ": matches " + matching + " of the requests" + (nearest == null ? "" : ": " + nearest));
            }
        }
        if (schema.has("const") && !schema.get("const").equals(value)) {
            out.add(at + ": is " + value + ", not " + schema.get("const"));
        }
        if (schema.has("type") && !typeMatches(schema.get("type"), value)) {
            out.add(at + ": is " + value.getNodeType() + ", not " + schema.get("type"));
            return;
        }
        if (value.isObject()) {
            JsonNode properties = schema.path("properties");
            for (JsonNode required : schema.path("required")) {
                if (!value.has(required.asText())) {
                    out.add(at + ": has no " + required.asText());
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (properties.has(f.getKey())) {
                    check(properties.get(f.getKey()), f.getValue(), at + "." + f.getKey(), out);
                } else if (schema.has("additionalProperties")) {
                    JsonNode more = schema.get("additionalProperties");
                    if (more.isBoolean() && !more.asBoolean()) {
                        out.add(at + ": has " + f.getKey() + ", which the schema does not name");
                    } else if (more.isObject()) {
                        check(more, f.getValue(), at + "." + f.getKey(), out);
                    }
                }
            }
        }
        if (value.isArray()) {
            if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
                out.add(at + ": has " + value.size() + " items, fewer than " + schema.get("minItems"));
            }
            if (schema.has("items")) {
                for (int i = 0; i < value.size(); i++) {
                    check(schema.get("items"), value.get(i), at + "[" + i + "]", out);
                }
            }
        }
        if (value.isTextual()) {
            String text = value.asText();
            if (schema.has("pattern") && !Pattern.compile(schema.get("pattern").asText()).matcher(text).find()) {
                out.add(at + ": does not match " + schema.get("pattern").asText());
            }
            if (schema.has("minLength") && text.codePointCount(0, text.length()) < schema.get("minLength").asInt()) {
                out.add(at + ": is shorter than " + schema.get("minLength"));
            }
            if (schema.has("maxLength") && text.codePointCount(0, text.length()) > schema.get("maxLength").asInt()) {
                out.add(at + ": is longer than " + schema.get("maxLength"));
            }
        }
        if (value.isNumber() && schema.has("minimum") && value.asLong() < schema.get("minimum").asLong()) {
            out.add(at + ": is below " + schema.get("minimum"));
        }
    }

    private static boolean typeMatches(JsonNode type, JsonNode value) {
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (typeMatches(t, value)) {
                    return true;
                }
            }
            return false;
        }
        return switch (type.asText()) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "null" -> value.isNull();
            default -> false;
        };
    }
}
