package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.runboard.session.KillReport;
import dev.runboard.session.OutputRule;
import dev.runboard.session.ResourceTotals;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.StackLink;
import dev.runboard.session.WatchSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The lean reader gives what Json's mapper gives, or says it cannot (and Jackson reads instead):
 * for rows with every section, with and without their null fields, pretty or on one line; and for
 * 3,000 damaged lines, where it must never accept what Jackson refuses or read a value
 * Jackson reads otherwise.
 */
class LeanJsonReaderTest {
    private static final String AWKWARD = LeanJsonTest.AWKWARD;
    private static final Instant T0 = LeanJsonTest.T0;
    private static final Instant T1 = LeanJsonTest.T1;
    private static final ObjectMapper WITHOUT_NULLS = Json.mapper().copy()
            .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL).disable(SerializationFeature.INDENT_OUTPUT);

    @Test
    void rowsWithEverySectionAreReadAsJacksonReadsThem() throws Exception {
        for (RowIndex.Row row : rows()) {
            for (String json : List.of(Json.write(row), WITHOUT_NULLS.writeValueAsString(row))) {
                RowIndex.Row lean = readOne(json);
                assertEquals(jackson(json), lean, json);
                assertEquals(row, lean, "and the row as it was written");
            }
        }
    }

    @Test
    void linesOfRowsAreReadOneByOne() throws Exception {
        StringBuilder lines = new StringBuilder();
        for (RowIndex.Row row : rows()) {
            lines.append(WITHOUT_NULLS.writeValueAsString(row)).append('\n');
        }
        byte[] bytes = lines.toString().getBytes(StandardCharsets.UTF_8);
        assertEquals(rows(), LeanJsonReader.readValues(bytes, 0, bytes.length, RowIndex.Row.class));
        assertEquals(List.of(), LeanJsonReader.readValues(bytes, 0, 0, RowIndex.Row.class));
    }

    @Test
    void unknownFieldsAreSkippedAndMissingOnesAreNullOrZero() throws Exception {
        String json = "{\"record\":{\"session_id\":\"20261130-101530-abcd\",\"from_a_newer_runboard\":{\"a\":[1,2.5e3,"
                + "{\"b\":null}],\"c\":true},\"status\":\"failed\"},\"head_bytes\":7,\"extra\":\"x\"}";
        RowIndex.Row lean = readOne(json);
        assertEquals(jackson(json), lean);
        assertEquals(0, lean.record().schema());
        assertEquals(7, lean.headBytes());
        assertEquals(List.of(), lean.record().events());
    }

    @Test
    void whatOnlyJacksonReadsIsLeftToIt() {
        WatchSpec watch = new WatchSpec(List.of(new OutputRule("ERROR", OutputRule.Action.FAIL)), Duration.ofSeconds(90),
                null, 1L << 30, 150.0, null);
        SpecRecord withDuration = new SpecRecord("x", null, null, "/", Map.of(), null, 0, 1, null, watch, null, null);
        assertUnreadable(Json.write(withDuration), SpecRecord.class);
        String plain = "{\"command\":\"x\",\"cwd\":\"/\",\"grace_ms\":0,\"preview_bytes\":1}";
        assertEquals(readJackson(plain, SpecRecord.class), LeanJsonReader.readValues(bytes(plain), 0, bytes(plain).length,
                SpecRecord.class).get(0));
        for (String coerced : List.of("{\"command\":12}", "{\"grace_ms\":\"12\"}", "{\"grace_ms\":1.5}", "{\"grace_ms\":1e3}",
                "{\"preview_bytes\":4294967296}", "{\"argv\":\"true\"}", "{\"pty\":\"true\"}")) {
            assertUnreadable(coerced, SpecRecord.class);
        }
        assertUnreadable("{\"record\":{\"started_at\":\"2026-11-30T11:15:30+01:00\"}}", RowIndex.Row.class);
        assertUnreadable("{\"record\":{\"started_at\":1764497730}}", RowIndex.Row.class);
        assertUnreadable("{\"record\":{\"status\":\"Running\"}}", RowIndex.Row.class);
    }

    @Test
    void bytesThatAreNotJsonAreUnreadable() {
        for (String broken : List.of("{", "{\"command\":\"x\",}", "{\"command\":\"x\"", "{\"command\" \"x\"}", "{command:\"x\"}",
                "{\"grace_ms\":01}", "{\"grace_ms\":-}", "{\"grace_ms\":1.}", "{\"command\":\"a\tb\"}", "{\"command\":\"\\x\"}",
                "{\"command\":\"\\u12G4\"}", "{\"pty\":tru}", "[]", "nul")) {
            assertUnreadable(broken, SpecRecord.class);
        }
        byte[] notUtf8 = {'{', '"', 'c', 'o', 'm', 'm', 'a', 'n', 'd', '"', ':', '"', (byte) 0xC3, '"', '}'};
        assertThrows(LeanJsonReader.Unreadable.class, () -> LeanJsonReader.readValues(notUtf8, 0, notUtf8.length, SpecRecord.class));
    }

    /**
     * Damaged lines (a byte changed, dropped or doubled, at random) are either left to Jackson or read
     * as Jackson reads them: never a value where Jackson refuses the line or reads another one.
     */
    @Test
    void damagedLinesAreNeverReadOtherwiseThanJacksonReadsThem() throws Exception {
        Random random = new Random(2026);
        List<byte[]> lines = new ArrayList<>();
        for (RowIndex.Row row : rows()) {
            lines.add(bytes(WITHOUT_NULLS.writeValueAsString(row)));
            lines.add(bytes(Json.write(row)));
        }
        byte[] alphabet = bytes("{}[]\":,.-+eE0123456789 \\u\ntrufalsn\u00e9");
        int read = 0;
        for (int i = 0; i < 3_000; i++) {
            byte[] line = lines.get(random.nextInt(lines.size()));
            byte[] damaged = damage(line, random, alphabet);
            List<RowIndex.Row> lean;
            try {
                lean = LeanJsonReader.readValues(damaged, 0, damaged.length, RowIndex.Row.class);
            } catch (LeanJsonReader.Unreadable e) {
                continue;
            }
            List<RowIndex.Row> jackson;
            try {
                jackson = readAllJackson(damaged);
            } catch (IOException | RuntimeException e) {
                fail("read what Jackson refuses (" + e.getMessage() + "): " + new String(damaged, StandardCharsets.UTF_8));
                return;
            }
            assertEquals(jackson, lean, new String(damaged, StandardCharsets.UTF_8));
            read++;
        }
        assertTrue(read > 500, "most single-byte changes land in strings and numbers and are still rows: " + read);
    }

    private static byte[] damage(byte[] line, Random random, byte[] alphabet) {
        int at = random.nextInt(line.length);
        byte[] out;
        switch (random.nextInt(3)) {
            case 0 -> {
                out = line.clone();
                out[at] = alphabet[random.nextInt(alphabet.length)];
            }
            case 1 -> {
                out = new byte[line.length - 1];
                System.arraycopy(line, 0, out, 0, at);
                System.arraycopy(line, at + 1, out, at, line.length - at - 1);
            }
            default -> {
                out = new byte[line.length + 1];
                System.arraycopy(line, 0, out, 0, at + 1);
                System.arraycopy(line, at, out, at + 1, line.length - at);
            }
        }
        return out;
    }

    private static List<RowIndex.Row> rows() {
        Map<String, String> env = LeanJsonTest.env();
        KillReport kill = LeanJsonTest.killReport();
        WatchSpec watch = new WatchSpec(List.of(new OutputRule("ERROR", OutputRule.Action.FAIL),
                new OutputRule("(?i)panic", OutputRule.Action.HIGHLIGHT)), null, null, 1L << 30, 150.0, null);
        SpecRecord full = new SpecRecord(null, List.of("sh", "-c", AWKWARD), "/bin/bash", "/home/u", env, 600_000L, 5000,
                65536, true, watch, -5, "user@box");
        SessionRecord killed = new SessionRecord(SessionRecord.SCHEMA, "20261130-101530-abcd", full, SessionStatus.KILLED,
                4242L, 987654L, T0, T1, 137, "KILL", AWKWARD, "", "", 1234, "note", "/a/b.log", "it failed",
                ArtifactErrorCode.DISK_FULL.code(), "/c/capture", kill, new ResourceTotals(1L << 33, 12.5),
                List.of(new SessionEvent(T1, SessionEvent.HANG, "no output for 30 s"), new SessionEvent(T0, "rule", AWKWARD)),
                new StackLink("web", "/w/runboard.yaml", "servers", Map.of("db", "ready"), 2, "20261130-101000-aaaa", true,
                        List.of(3, 4), new dev.runboard.session.ShutdownStep("pg_ctl stop -m " + AWKWARD, "INT")),
                Boolean.TRUE, null, null, null);
        SessionRecord plain = new SessionRecord(SessionRecord.SCHEMA, "20261130-101531-beef",
                new SpecRecord("make test", null, null, "/", Map.of(), null, 0, 1, null, null, null, null),
                SessionStatus.COMPLETED, null, 0, T0, T1, 0, null, null, "", "", 0, null, null, null, null, null,
                null, null, List.of(), null, null, null, null, null);
        return List.of(new RowIndex.Row(killed, 10, 20, AWKWARD), new RowIndex.Row(plain, 0, 0, ""));
    }

    private static RowIndex.Row readOne(String json) {
        byte[] bytes = bytes(json);
        List<RowIndex.Row> rows = LeanJsonReader.readValues(bytes, 0, bytes.length, RowIndex.Row.class);
        assertEquals(1, rows.size());
        return rows.get(0);
    }

    private static RowIndex.Row jackson(String json) throws IOException {
        return readJackson(json, RowIndex.Row.class);
    }

    private static <T> T readJackson(String json, Class<T> type) {
        try {
            return Json.mapper().readValue(json, type);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<RowIndex.Row> readAllJackson(byte[] bytes) throws IOException {
        List<RowIndex.Row> rows = new ArrayList<>();
        try (MappingIterator<RowIndex.Row> it = Json.mapper().readerFor(RowIndex.Row.class).readValues(bytes)) {
            while (it.hasNextValue()) {
                rows.add(it.nextValue());
            }
        }
        return rows;
    }

    private static void assertUnreadable(String json, Class<?> type) {
        byte[] bytes = bytes(json);
        assertThrows(LeanJsonReader.Unreadable.class, () -> LeanJsonReader.readValues(bytes, 0, bytes.length, type), json);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
