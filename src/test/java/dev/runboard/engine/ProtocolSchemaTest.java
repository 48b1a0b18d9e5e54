package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.runboard.store.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The protocol has one schema, protocol-schema.json, and the request records are what it says: the same
 * requests, each with the same fields (its record's components, in snake_case, beside v and op), and the
 * version the protocol speaks. A request the records cannot read is refused in one line.
 */
class ProtocolSchemaTest {
    @Test
    void theSchemaDescribesEveryRequestRecordAndNothingElse() throws Exception {
        ProtocolSchema schema = ProtocolSchema.load();
        assertEquals(Protocol.VERSION, schema.root().path("version").asInt(), "the schema's version");
        assertEquals(Protocol.VERSION, schema.root().path("$defs").path("version").path("const").asInt());
        Set<String> described = new TreeSet<>();
        for (JsonNode option : schema.root().path("oneOf")) {
            described.add(option.path("$ref").asText().substring("#/$defs/".length()));
        }
        assertEquals(new TreeSet<>(Requests.BY_OP.keySet()), described, "the schema's requests are the records'");
        PropertyNamingStrategies.SnakeCaseStrategy snake = new PropertyNamingStrategies.SnakeCaseStrategy();
        for (var r : Requests.BY_OP.entrySet()) {
            JsonNode definition = schema.request(r.getKey());
            assertEquals(r.getKey(), definition.path("properties").path("op").path("const").asText(), r.getKey());
            Set<String> fields = new TreeSet<>(List.of("v", "op"));
            for (var component : r.getValue().getRecordComponents()) {
                var named = component.getAccessor().getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
                fields.add(named != null ? named.value() : snake.translate(component.getName()));
            }
            Set<String> properties = new TreeSet<>();
            definition.path("properties").fieldNames().forEachRemaining(properties::add);
            assertEquals(fields, properties, r.getKey() + ": the schema's fields are its record's");
            assertFalse(definition.path("additionalProperties").asBoolean(true), r.getKey() + " names all its fields");
        }
    }

    @Test
    void theValidatorRefusesWhatTheSchemaDoesNotAllow() throws Exception {
        ProtocolSchema schema = ProtocolSchema.load();
        assertEquals(List.of(), schema.problems(line("{\"v\":4,\"op\":\"kill\",\"id\":\"2026\",\"grace_ms\":0}")));
        for (String bad : List.of("{\"v\":4,\"op\":\"kill\"}", "{\"v\":3,\"op\":\"list\"}", "{\"v\":4,\"op\":\"lists\"}",
                "{\"v\":4,\"op\":\"kill\",\"id\":\"x\",\"grace\":5}", "{\"v\":4,\"op\":\"kill\",\"id\":\"x\",\"grace_ms\":-1}",
                "{\"v\":4,\"op\":\"cli\",\"argv\":[\"6c697\"],\"env\":[],\"cwd\":\"2f\",\"terminal\":false}",
                "{\"v\":4,\"op\":\"cli\",\"argv\":[],\"env\":[],\"cwd\":\"2f\",\"terminal\":false}",
                "{\"v\":4,\"op\":\"signal\",\"id\":\"x\",\"signal\":\"term\"}")) {
            assertFalse(schema.problems(line(bad)).isEmpty(), bad);
        }
    }

    @Test
    void aRequestTheRecordsCannotReadIsRefusedInOneLine() throws Exception {
        List<String> said = new ArrayList<>();
        for (String bad : List.of("{\"v\":4,\"op\":\"kill\",\"id\":\"zz\",\"signal\":123,\"grace_ms\":\"soon\"}",
                "{\"v\":4,\"op\":\"adopt_exec\",\"id\":\"../x\",\"pid\":\"abc\",\"argv\":7}",
                "{\"v\":4,\"op\":\"start\",\"spec\":\"sh -c 'exit 1'\"}", "{\"v\":4,\"op\":\"cli\",\"argv\":\"echo\"}",
                "{\"v\":4,\"op\":\"queue\",\"name\":\"q\",\"parallel\":{\"n\":1}}", "{\"v\":4,\"op\":\"LIST\"}", "{\"v\":4}")) {
            SupervisorRequests.Refused refused = assertThrows(SupervisorRequests.Refused.class, () -> Requests.decode(line(bad)), bad);
            said.add(refused.getMessage());
            assertEquals(1, refused.getMessage().lines().count(), bad + " -> " + refused.getMessage());
        }
        assertTrue(said.get(0).startsWith("a malformed kill request: 'grace_ms': "), said.get(0));
        assertEquals("unknown request 'LIST'", said.get(5));
        assertEquals("unknown request ''", said.get(6));
    }

    private static JsonNode line(String text) throws Exception {
        return Json.mapper().readTree(text);
    }
}
