package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.Session;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.WatchSpec;
import dev.runboard.testing.Stress;
import dev.runboard.testing.TestScale;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feeds mutated records (byte flips, truncation, deleted fields, swapped types, nulls, huge
 * numbers, path-like ids) to {@link SessionStore#loadAll()}: nothing escapes, every valid record
 * beside the bad ones loads, each bad one costs exactly one warning, and whatever loads can be used.
 */
class RecordFuzzTest {
    private static final long SEED = 20261201L;
    private static final int ROUNDS = TestScale.size(300);
    private static final List<JsonNode> ODD_VALUES = List.of(NullNode.instance, TextNode.valueOf(""), TextNode.valueOf("x"),
            TextNode.valueOf("../../x"), TextNode.valueOf("NaN"), TextNode.valueOf("\u0000"), BooleanNode.TRUE,
            LongNode.valueOf(Long.MAX_VALUE), LongNode.valueOf(Long.MIN_VALUE), LongNode.valueOf(-1), LongNode.valueOf(0),
            DoubleNode.valueOf(1e308), DoubleNode.valueOf(-0.5), JsonNodeFactory.instance.numberNode(new BigInteger("9".repeat(40))),
            JsonNodeFactory.instance.arrayNode(), JsonNodeFactory.instance.objectNode(),
            TextNode.valueOf("+999999999-01-01T00:00:00Z"), TextNode.valueOf("%%%not base64"));
    private static final List<String> ODD_IDS = List.of("../../x", "..", ".", "", "/etc/passwd", "a/b", "x\u0000y", "-rf",
            "a".repeat(300), "20261201-000739-3604d5/../x", "é", " ");

    @TempDir
    Path root;

    @Test
    @Stress
    @Timeout(60) // a few seconds; only a hang would reach this
    void noMutatedRecordStopsTheRestFromLoading() throws Exception {
        Random random = new Random(SEED);
        List<ObjectNode> seeds = seeds();
        for (int round = 0; round < ROUNDS; round++) {
            Path dataDir = Files.createDirectory(root.resolve("round-" + round));
            Set<String> valid = new HashSet<>();
            Set<String> mutated = new HashSet<>();
            int records = 2 + random.nextInt(4);
            for (int i = 0; i < records; i++) {
                String id = String.format(Locale.ROOT, "20261201-%06d-%06x", i, random.nextInt(1 << 24));
                ObjectNode record = seeds.get(random.nextInt(seeds.size())).deepCopy();
                record.put("session_id", id);
                if (i > 0 && random.nextInt(3) > 0) {
                    RecordFiles.write(dataDir, id, mutate(record, random));
                    mutated.add(id);
                } else {
                    RecordFiles.write(dataDir, id, record);
                    valid.add(id);
                }
            }
            SessionStore store = new SessionStore(dataDir);
            String context = "round " + round + " (seed " + SEED + ")";
            SessionStore.LoadResult loaded;
            try {
                loaded = store.loadAll();
            } catch (RuntimeException e) {
                throw new AssertionError(context + ": loadAll threw", e);
            }
            Set<String> ids = new HashSet<>();
            for (SessionRecord r : loaded.records()) {
                ids.add(r.id());
                try {
                    RecordFiles.use(store, r);
                } catch (RuntimeException e) {
                    throw new AssertionError(context + ": record " + r.id() + " loaded but cannot be used:\n"
                            + new String(Files.readAllBytes(store.file(r.id(), SessionStore.RECORD)), StandardCharsets.UTF_8), e);
                }
            }
            assertTrue(ids.containsAll(valid), context + ": valid records lost: " + valid + " vs " + ids + " " + loaded.warnings());
            int rejected = mutated.size() - (int) mutated.stream().filter(ids::contains).count();
            assertEquals(rejected, loaded.warnings().size(), context + ": one warning per bad record: " + loaded.warnings());
            for (String id : mutated) {
                assertTrue(ids.contains(id) != Files.exists(dataDir.resolve("corrupt").resolve(id + "-session.json")),
                        context + ": " + id + " is either loaded or moved aside");
            }
            assertEquals(List.of(), store.loadAll().warnings(), context + ": a second load finds nothing new to move");
        }
    }

    /** Runboard 0.1's two records as kept, and a running one and a finished one written today. */
    private static List<ObjectNode> seeds() throws IOException {
        List<ObjectNode> seeds = new ArrayList<>();
        for (String id : RecordFiles.SCHEMA_0_1_IDS) {
            seeds.add(RecordFiles.schema01Tree(id));
        }
        SessionSpec spec = SessionSpec.argv("make", "-j4").cwd(Path.of("/tmp")).timeout(Duration.ofMinutes(10)).env("A", "b")
                .watch(WatchSpec.NONE.withHang(Duration.ofSeconds(30), WatchSpec.HangAction.KILL).withMaxCpu(150.0, Duration.ofSeconds(5)))
                .build();
        Instant at = Instant.parse("2026-12-01T12:00:00Z");
        Session running = Session.restore("20261201-120000-aaaaaa", spec, null, Clock.systemUTC(), 1234L, 5678, at, null, null);
        seeds.add((ObjectNode) Json.mapper().valueToTree(SessionRecord.of(running)));
        SessionOutcome ended = new SessionOutcome(SessionStatus.KILLED, at.plusSeconds(60), null, "TERM", "killed by the user",
                OutputPreview.of("é\n".repeat(3000).getBytes(StandardCharsets.UTF_8), 1024), "/tmp/a.log", null, null, null);
        seeds.add((ObjectNode) Json.mapper().valueToTree(SessionRecord.of(running, ended)));
        return seeds;
    }

    private static byte[] mutate(ObjectNode record, Random random) throws IOException {
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
            switch (random.nextInt(5)) {
                case 0 -> removeField(record, random);
                case 1 -> replaceValue(record, random, ODD_VALUES.get(random.nextInt(ODD_VALUES.size())));
                case 2 -> replaceValue(record, random, swappedType(random));
                case 3 -> record.put("session_id", ODD_IDS.get(random.nextInt(ODD_IDS.size())));
                default -> record.put("schema", random.nextBoolean() ? 1 : 2);
            }
        }
        byte[] bytes = Json.mapper().writeValueAsBytes(record);
        if (random.nextInt(4) == 0) {
            int flips = 1 + random.nextInt(4);
            for (int i = 0; i < flips; i++) {
                bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
            }
        }
        if (random.nextInt(10) == 0) {
            bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
        }
        return bytes;
    }

    private static JsonNode swappedType(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> TextNode.valueOf(String.valueOf(random.nextLong()));
            case 1 -> LongNode.valueOf(random.nextLong());
            case 2 -> JsonNodeFactory.instance.arrayNode().add(random.nextInt());
            default -> BooleanNode.valueOf(random.nextBoolean());
        };
    }

    /** Containers (objects and arrays) anywhere in the record, the record itself included. */
    private static List<JsonNode> containers(JsonNode node) {
        List<JsonNode> out = new ArrayList<>();
        if (node.isContainerNode()) {
            out.add(node);
            node.elements().forEachRemaining(child -> out.addAll(containers(child)));
        }
        return out;
    }

    private static void removeField(ObjectNode record, Random random) {
        List<JsonNode> objects = containers(record).stream().filter(JsonNode::isObject).filter(o -> o.size() > 0).toList();
        ObjectNode target = (ObjectNode) objects.get(random.nextInt(objects.size()));
        List<String> names = new ArrayList<>();
        target.fieldNames().forEachRemaining(names::add);
        target.remove(names.get(random.nextInt(names.size())));
    }

    private static void replaceValue(ObjectNode record, Random random, JsonNode value) {
        List<JsonNode> targets = containers(record).stream().filter(c -> c.size() > 0).toList();
        JsonNode target = targets.get(random.nextInt(targets.size()));
        if (target instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            o.set(names.get(random.nextInt(names.size())), value);
        } else {
            ((ArrayNode) target).set(random.nextInt(target.size()), value);
        }
    }
}
