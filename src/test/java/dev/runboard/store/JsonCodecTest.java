package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.runboard.session.KillReport;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.OutputRule;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.ResourceTotals;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.SlurmJob;
import dev.runboard.session.SlurmTarget;
import dev.runboard.session.StackLink;
import dev.runboard.session.WatchSpec;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Jackson is runboard's one JSON codec: every kind of record it writes reads back to itself, in
 * the layout records had before (those the retired lean writer wrote read, and are written again
 * byte for byte); the bytes written from a preview's own bytes are the text's; and strings of any
 * characters, lone surrogates included, come back exactly.
 */
class JsonCodecTest {
    /** Quotes, backslashes, every control character, DEL, non-ASCII and a surrogate pair. */
    static final String AWKWARD;

    static {
        StringBuilder s = new StringBuilder("say \"hi\" \\ / é 中 \uD83D\uDE00 \u007F\u0085 ");
        for (char c = 0; c < 0x20; c++) {
            s.append(c);
        }
        AWKWARD = s.toString();
    }

    static final Instant T0 = Instant.parse("2026-11-30T10:15:30.123456789Z");
    static final Instant T1 = Instant.parse("2026-11-30T10:16:00Z");
    private static final String ID = "20261130-101530-abcd";
    /** A record written by the lean writer runboard had before Jackson was its one codec (test resources). */
    static final String LEAN_ID = "20261207-050000-5a1e0f";
    private static final ObjectMapper ON_ONE_LINE_WITHOUT_NULLS = Json.mapper().copy()
            .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL).disable(SerializationFeature.INDENT_OUTPUT);

    @Test
    void recordsOfEveryStatusAndSectionReadBackToThemselves() throws Exception {
        for (SessionRecord record : records()) {
            byte[] written = Json.writeBytes(record);
            assertEquals(record, RecordReader.read(written, record.id()), record.status().word());
            assertArrayEquals(written, Json.writeBytes(RecordReader.read(written, record.id())), "written again the same");
            assertEquals(record.withoutPreview(), RecordReader.readWithoutPreview(written, record.id()));
            RowIndex.Row row = RowIndex.Row.of(record);
            for (String json : List.of(Json.write(row), ON_ONE_LINE_WITHOUT_NULLS.writeValueAsString(row))) {
                assertEquals(row, Json.readerFor(RowIndex.Row.class).readValue(json), json);
            }
        }
        for (Object value : List.of(records().get(0).spec(), killReport(), Settings.DEFAULTS, slurmJob(),
                StackLink.adHoc("queue", Map.of("20261130-101000-aaaa", "success")))) {
            assertEquals(value, Json.readerFor(value.getClass()).readValue(Json.writeBytes(value)), value.getClass().getName());
        }
    }

    /** What the lean writer wrote (a finished Slurm session's record) reads as the same record, and Jackson writes the same bytes. */
    @Test
    void aRecordTheLeanWriterWroteReadsAndIsWrittenByteForByteAsBefore() throws Exception {
        byte[] lean = resource("/records/leanjson/" + LEAN_ID + "/session.json");
        SessionRecord read = RecordReader.read(lean, LEAN_ID);
        assertEquals(new SlurmJob("4711", "node-7", "debug", "COMPLETED", null), read.slurm());
        assertEquals(new SlurmTarget(List.of("--partition=debug", "--time=5")), read.spec().slurm());
        assertEquals("a\uDC80b", read.spec().env().get("RAW"), "a byte that is not UTF-8 kept as its lone surrogate");
        assertEquals(AWKWARD, read.reason());
        assertArrayEquals(lean, Json.writeBytes(read));
    }

    /**
     * A snapshot's output and a record's preview are written from their own bytes into the UTF-8
     * JSON: output of every awkward kind — invalid UTF-8 (cut sequences, stray continuations,
     * overlong forms, surrogates' encodings), NUL and other control bytes, quotes and backslashes,
     * multi-byte characters — on either side of the omission marker, is written as its text is.
     */
    @Test
    void outputOfAnyBytesIsWrittenFromItsBytesAsItsTextIsWritten() {
        Random random = new Random(16);
        byte[] alphabet = {'a', 'Z', ' ', '\n', '\r', '\t', 0, 0x1B, 0x7F, '"', '\\', (byte) 0xC3, (byte) 0xA9,
            (byte) 0xE2, (byte) 0x80, (byte) 0xA6, (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80, (byte) 0xED,
            (byte) 0xA0, (byte) 0xC0, (byte) 0xFF};
        for (int round = 0; round < 300; round++) {
            byte[] output = new byte[random.nextInt(200)];
            for (int i = 0; i < output.length; i++) {
                output[i] = random.nextInt(3) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
            }
            OutputPreview preview = OutputPreview.of(output, 1 + random.nextInt(220));
            assertBytesAreText(snapshot(SessionStatus.COMPLETED, preview));
            Base64.Encoder b64 = Base64.getEncoder();
            assertBytesAreText(new SessionRecord(SessionRecord.SCHEMA, ID,
                    new SpecRecord("true", null, null, "/", Map.of(), null, 0, 1, null, null, null, null), SessionStatus.COMPLETED,
                    4242L, 0, T0, T1, 0, null, null, b64.encodeToString(preview.headBytes()),
                    b64.encodeToString(preview.tailBytes()), output.length, null, null, null, null, null, null, null,
                    List.of(), null, null, null, null, null));
        }
    }

    private static void assertBytesAreText(Object value) {
        assertArrayEquals(Json.write(value).getBytes(StandardCharsets.UTF_8), Json.writeBytes(value));
    }

    /**
     * Every character that needs escaping, a surrogate pair and a lone surrogate (a byte that is not
     * UTF-8, RawText), at the start, the end and inside strings, reads back as it was; a lone
     * surrogate is written as an escape (Jackson alone wrote '?', and the byte was lost).
     */
    @Test
    void stringsOfAnyCharactersComeBackExactly() throws Exception {
        List<String> awkward = List.of("\"", "\\", "\n", "\r", "\t", "\b", "\f", "\u0000", "\u001B", "\u001F",
                "\uD83D\uDE00", "\u2026", "é", "\u007F", "\uD83D", "\uDE00");
        for (String odd : awkward) {
            for (int before : new int[] {0, 1, 16, 40}) {
                for (int after : new int[] {0, 1, 16}) {
                    String text = "a".repeat(before) + odd + "b".repeat(after) + odd;
                    Map<String, String> value = Map.of("text", text);
                    assertEquals(value, Json.mapper().readValue(Json.writeBytes(value), Map.class), text);
                    assertEquals(Json.write(value), new String(Json.writeBytes(value), StandardCharsets.UTF_8));
                }
            }
        }
        assertEquals("\"" + "x".repeat(30) + "\\ud83d\"", Json.write("x".repeat(30) + "\uD83D"));
        assertEquals("\"\\\"\\ude00\\n\\u0001\"", Json.write("\"\uDE00\n\u0001"));
    }

    private static List<SessionRecord> records() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("B", "2");
        env.put("A", AWKWARD);
        env.put("RAW", "a\uDC80b");
        WatchSpec watch = new WatchSpec(List.of(new OutputRule("ERROR", OutputRule.Action.FAIL),
                new OutputRule("(?i)panic", OutputRule.Action.HIGHLIGHT)), Duration.ofSeconds(90), WatchSpec.HangAction.KILL,
                1L << 30, 150.0, Duration.ofMillis(1500));
        SpecRecord full = new SpecRecord(null, List.of("sh", "-c", AWKWARD.replace("\0", "")), "/bin/bash", "/home/u", env, 600_000L, 5000,
                65536, true, watch, 5, null, 1L << 20, List.of("A"), new SlurmTarget(List.of("--partition=gpu")));
        StackLink stack = new StackLink("web", "/w/runboard.yaml", "servers", Map.of("db", "ready"), 2, "20261130-101000-aaaa",
                true, List.of(3, 4), new dev.runboard.session.ShutdownStep("pg_ctl stop", "INT"));
        List<SessionRecord> records = new ArrayList<>();
        for (SessionStatus status : SessionStatus.values()) {
            boolean ended = status.isTerminal();
            records.add(new SessionRecord(SessionRecord.SCHEMA, ID, full, status, status.isWaiting() ? null : 4242L, 987654L,
                    T0, ended ? T1 : null, ended ? 137 : null, ended ? "KILL" : null, AWKWARD, "aGVhZA==", "dGFpbA==", 1234,
                    "note", "/a/b.log", "it failed", ArtifactErrorCode.DISK_FULL.code(), "/c/capture", killReport(),
                    new ResourceTotals(1L << 33, 12.5), List.of(new SessionEvent(T1, SessionEvent.HANG, "no output for 30 s"),
                            new SessionEvent(T0, "rule", AWKWARD)), stack, Boolean.TRUE, 10L, ended ? null : "connected",
                    slurmJob()));
        }
        records.add(new SessionRecord(SessionRecord.SCHEMA, ID,
                new SpecRecord("make test", null, null, "/", Map.of(), null, 0, 1024, null, null, null, null),
                SessionStatus.COMPLETED, null, 0, T0, T1, 0, null, null, "", "", 0, null, null, null, null, null,
                null, null, List.of(), null, null, null, null, null));
        return records;
    }

    private static SlurmJob slurmJob() {
        return new SlurmJob("4711", "gpu-03", "gpu", "PENDING", "Resources");
    }

    static KillReport killReport() {
        return new KillReport("asked", "TERM", 5000, T0, 4242, List.of(new ProcessRef(4242, "sh -c x"), new ProcessRef(4243, AWKWARD)),
                true, List.of(new ProcessRef(4243, "sleep")), List.of(), T1, List.of(), List.of(), List.of("a note"));
    }

    private static SessionSnapshot snapshot(SessionStatus status, OutputPreview preview) {
        return new SessionSnapshot(status, ID, "sleep 30", List.of("sleep", "30"), "/tmp", "/bin/sh",
                Map.of("A", AWKWARD), 4242L, T0, T1, 29.5, 600.0, 5.0, 5, 137, "KILL", AWKWARD, preview, "/a/20261130.log", null,
                null, "/c/capture", killReport(), new ResourceTotals(123456789, 0.0001), List.of(new SessionEvent(T1, "rule", AWKWARD)),
                "user@box", "disconnected", List.of(new ProcessRef(4250, "sleep 600")),
                new StackLink("web", "/w/runboard.yaml", "servers", Map.of("db", "ready"), 2, "20261130-101000-aaaa", true),
                Boolean.TRUE, new dev.runboard.session.RunProgress(0.42, 12.5, false, "output"), slurmJob());
    }

    static byte[] resource(String name) throws java.io.IOException {
        try (InputStream in = JsonCodecTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new java.io.IOException("missing test resource " + name);
            }
            return in.readAllBytes();
        }
    }
}
