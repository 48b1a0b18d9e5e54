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

    /**
     * Each request's reply is described as its record writes it: {@code reply_OP} names {@code v}, {@code ok} and
     * the record's components (snake_case), and nothing else; so do the refusal and the records replies nest.
     */
    @Test
    void theSchemaDescribesEveryReplyRecordAndNothingElse() throws Exception {
        ProtocolSchema schema = ProtocolSchema.load();
        for (var r : Requests.BY_OP.entrySet()) {
            Class<?> reply = Requests.replyType(r.getValue());
            assertTrue(reply.isRecord(), r.getKey() + ": its reply is a record, " + reply);
            assertDescribes(schema.reply(r.getKey()), reply, "reply_" + r.getKey(), "v", "ok");
        }
        assertDescribes(schema.definition("refusal"), Protocol.Refusal.class, "refusal", "v", "ok");
        assertDescribes(schema.definition("supervisor"), Supervisor.Status.class, "supervisor");
        assertDescribes(schema.definition("sampled"), UsageRequest.Sampled.class, "sampled");
        assertDescribes(schema.definition("live_usage"), LiveUsage.class, "live_usage");
        assertDescribes(schema.definition("process_usage"), LiveUsage.ProcessUsage.class, "process_usage");
        assertDescribes(schema.definition("up_run"), UpRequest.Run.class, "up_run");
    }

    private static void assertDescribes(JsonNode definition, Class<?> record, String name, String... envelope) {
        PropertyNamingStrategies.SnakeCaseStrategy snake = new PropertyNamingStrategies.SnakeCaseStrategy();
        Set<String> fields = new TreeSet<>(List.of(envelope));
        for (var component : record.getRecordComponents()) {
            var named = component.getAccessor().getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
            fields.add(named != null ? named.value() : snake.translate(component.getName()));
        }
        Set<String> properties = new TreeSet<>();
        definition.path("properties").fieldNames().forEachRemaining(properties::add);
        assertEquals(fields, properties, name + ": the schema's fields are " + record.getName() + "'s");
        assertFalse(definition.path("additionalProperties").asBoolean(true), name + " names all its fields");
    }

    /** What a supervisor writes is what the schema allows, for each shape a reply takes. */
    @Test
    void theRepliesAsTheSupervisorWritesThemAreValid() throws Exception {
        ProtocolSchema schema = ProtocolSchema.load();
        java.util.Map<String, Protocol.Reply> replies = new java.util.LinkedHashMap<>();
        replies.put("stop", new Protocol.Done());
        replies.put("start", new StartRequest.Reply("20261207-050000-abcdef", dev.runboard.session.SessionStatus.QUEUED));
        replies.put("adopt_exec", new StartRequest.Reply("20261207-050000-abcdef", dev.runboard.session.SessionStatus.RUNNING));
        replies.put("exec_exited", new ExecExitedRequest.Reply(130, "7b7d"));
        replies.put("cli", new CliRequest.Reply(2));
        replies.put("remove", new RemoveRequest.Reply(0));
        replies.put("up", new UpRequest.Reply(null, null, List.of(new UpRequest.Run("web", "20261207-050000-abcdef",
                dev.runboard.session.SessionStatus.PENDING, "waiting for db to be ready")), List.of("docs")));
        for (var r : replies.entrySet()) {
            JsonNode line = Json.mapper().readTree(Protocol.line(r.getValue()));
            assertEquals(List.of(), schema.replyProblems(r.getKey(), line), r.getKey() + ": " + line);
        }
        assertEquals(List.of(), schema.replyProblems("wait", line(ReplyReader.HEARTBEAT)));
        assertEquals(List.of(), schema.replyProblems("list", Json.mapper().readTree(Protocol.line(new Protocol.Refusal("no", true)))));
        // The exec client reads exec_exited's reply with a pattern, the thin client its cli reply as a whole line.
        assertEquals("{\"v\":" + Protocol.VERSION + ",\"ok\":true,\"exit\":130,\"snapshot_hex\":\"7b7d\"}\n",
                new String(Protocol.line(replies.get("exec_exited")), java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals("{\"v\":" + Protocol.VERSION + ",\"ok\":true,\"exit\":2}\n",
                new String(Protocol.line(replies.get("cli")), java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals("{\"v\":" + Protocol.VERSION + ",\"ok\":true}\n",
                new String(Protocol.line(replies.get("stop")), java.nio.charset.StandardCharsets.US_ASCII));
        for (String bad : List.of("{\"v\":4,\"ok\":true,\"bytes\":5,\"freed\":5}", "{\"v\":4,\"ok\":true}",
                "{\"v\":4,\"ok\":false,\"error\":\"x\"}")) {
            assertFalse(schema.replyProblems("remove", line(bad)).isEmpty(), bad);
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
