package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.runboard.session.KillReport;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.OutputRule;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.ResourceTotals;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.WatchSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lean writer prints byte for byte what Jackson prints, and hands Jackson what it cannot. */
class LeanJsonTest {
    /** Quotes, backslashes, every control character, DEL, non-ASCII and a surrogate pair (LeanJsonReaderTest reads them too). */
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

    /** What LeanJson reads from class files is what reflection sees, for every type it writes. */
    @Test
    void annotationsReadFromTheClassFilesAreThoseReflectionSees() {
        for (Class<?> type : List.of(SessionSnapshot.class, SessionRecord.class, SpecRecord.class, KillReport.class,
                ResourceTotals.class, SessionEvent.class, WatchSpec.class, OutputRule.class, ProcessRef.class,
                SessionStatus.class, Settings.class)) {
            ClassFileAnnotations file = ClassFileAnnotations.of(type);
            org.junit.jupiter.api.Assertions.assertNotNull(file, type.getName());
            assertEquals(reflected(type.getAnnotations()), read(file.onClass()), type.getName());
            for (java.lang.reflect.Method m : type.getDeclaredMethods()) {
                if (m.getParameterCount() == 0 && !m.isSynthetic()) {
                    assertEquals(reflected(m.getAnnotations()), read(file.onMethod(m.getName())), type.getName() + "." + m.getName());
                }
            }
        }
    }

    private static List<String> reflected(java.lang.annotation.Annotation[] annotations) {
        return java.util.Arrays.stream(annotations).map(a -> a.annotationType().getName()
                + (a instanceof com.fasterxml.jackson.annotation.JsonProperty p ? "=" + p.value() : "")
                + (a instanceof com.fasterxml.jackson.annotation.JsonPropertyOrder o ? "=" + List.of(o.value()) + o.alphabetic() : ""))
                .sorted().toList();
    }

    private static List<String> read(List<ClassFileAnnotations.Annotation> annotations) {
        return annotations.stream().map(a -> a.type()
                + (a.type().endsWith(".JsonProperty") ? "=" + a.values().getOrDefault("value", "") : "")
                + (a.type().endsWith(".JsonPropertyOrder") ? "=" + a.values().getOrDefault("value", List.of())
                        + a.values().getOrDefault("alphabetic", false) : ""))
                .sorted().toList();
    }

    @Test
    void aFinishedSnapshotWithEverySectionIsWrittenAsJacksonWritesIt() {
        assertSame(snapshot(SessionStatus.KILLED, killReport(), OutputPreview.of(("line 1\n" + AWKWARD).getBytes(StandardCharsets.UTF_8), 8)));
    }

    @Test
    void aSnapshotWithEmptyAndNullPartsIsWrittenAsJacksonWritesIt() {
        assertSame(new SessionSnapshot(SessionStatus.RUNNING, "20261130-101530-abcd", "true", List.of(), "/tmp", null,
                Map.of(), null, T0, null, 0.0, null, 0.0, 0, null, null, null, OutputPreview.EMPTY, null, null, null,
                null, null, null, List.of(), null, null, List.of(), null, null, dev.runboard.session.RunProgress.NONE));
    }

    @Test
    void recordsAreWrittenAsJacksonWritesThem() {
        SpecRecord spec = new SpecRecord(null, List.of("sh", "-c", AWKWARD), "/bin/bash", "/home/u", env(), 600_000L,
                5000, 65536, true, null, -5, null);
        assertSame(new SessionRecord(SessionRecord.SCHEMA, "20261130-101530-abcd", spec, SessionStatus.FAILED, 4242L,
                987654L, T0, T1, 3, "TERM", AWKWARD, "aGVhZA==", "", 1234, "note", "/a/b.log", "it failed",
                ArtifactErrorCode.DISK_FULL.code(), "/c/capture", killReport(), new ResourceTotals(1L << 33, 12.5),
                List.of(new SessionEvent(T1, SessionEvent.HANG, "no output for 30 s")), null, null, null, null, null));
        assertSame(new SessionRecord(SessionRecord.SCHEMA, "20261130-101530-abcd",
                new SpecRecord("make test", null, null, "/", Map.of(), null, 0, 1, null, null, null, "build-box"),
                SessionStatus.RUNNING, null, 0, T0, null, null, null, null, null, null, 0, null, null, null, null, null,
                null, null, List.of(), null, null, null, "connected", null));
    }

    /** exec writes these without starting Jackson (docs/BENCHMARKS.md §10): the names lent by SessionMixIns are read, not handed over. */
    @Test
    void execsSnapshotAndRecordAreWrittenWithoutJackson() {
        SessionSnapshot snapshot = snapshot(SessionStatus.COMPLETED, killReport(), OutputPreview.of("ok\n".getBytes(StandardCharsets.UTF_8), 64));
        assertNotNull(LeanJson.writeItself(snapshot), "a snapshot");
        assertNotNull(LeanJson.writeItself(new SessionRecord(SessionRecord.SCHEMA, "20261130-101530-abcd",
                new SpecRecord(null, List.of("true"), null, "/tmp", Map.of(), null, 5000, 65536, null, null, 0, null),
                SessionStatus.COMPLETED, 4242L, 987654L, T0, T1, 0, null, null, "b2sK", "", 3, null, null, null, null,
                "/c/capture", killReport(), new ResourceTotals(1024, 0.5), List.of(), null, null, null, null, null)), "a record");
    }

    /**
     * The escaping copies runs of plain characters whole (and reads long strings as one array): every
     * kind of character that needs escaping, or a surrogate pair, at the start, the end and inside
     * runs of every length on both sides of that cut, is still written as Jackson writes it.
     */
    @Test
    void escapesAtEveryPlaceOfShortAndLongStringsAreWrittenAsJacksonWritesThem() {
        List<String> awkward = List.of("\"", "\\", "\n", "\r", "\t", "\b", "\f", "\u0000", "\u001B", "\u001F",
                "\uD83D\uDE00", "\u2026", "é", "\u007F");
        for (String odd : awkward) {
            for (int before : new int[] {0, 1, 15, 16, 17, 40}) {
                for (int after : new int[] {0, 1, 16, 40}) {
                    String text = "a".repeat(before) + odd + "b".repeat(after) + odd;
                    assertSame(Map.of("text", text));
                }
            }
        }
        assertSame(Map.of("lone high at the end", "x".repeat(30) + "\uD83D"));
        assertSame(Map.of("lone low inside", "x".repeat(30) + "\uDE00" + "y".repeat(30)));
        // A lone surrogate (a byte that is not UTF-8, RawText) is an escape in both: Jackson alone wrote '?'.
        assertEquals("\"" + "x".repeat(30) + "\\ud83d\"", LeanJson.write("x".repeat(30) + "\uD83D"));
    }

    /** exec prepares its snapshot's type while its command runs: that changes nothing written, and a type Jackson writes is no error. */
    @Test
    void preparedTypesAreWrittenAsJacksonWritesThem() {
        LeanJson.prepare(SessionSnapshot.class);
        LeanJson.prepare(SessionRecord.class);
        LeanJson.prepare(dev.runboard.session.StackLink.class);
        LeanJson.prepare(WatchSpec.class);
        assertSame(snapshot(SessionStatus.KILLED, killReport(), OutputPreview.of(("line 1\n" + AWKWARD).getBytes(StandardCharsets.UTF_8), 8)));
        assertNull(LeanJson.writeItself(dev.runboard.session.StackLink.adHoc("q", Map.of())), "still Jackson's");
    }

    @Test
    void whatItDoesNotKnowGoesToJackson() {
        WatchSpec watch = new WatchSpec(List.of(new OutputRule("ERROR", OutputRule.Action.FAIL)), Duration.ofSeconds(90),
                null, 1L << 30, 150.0, Duration.ofMillis(1500));
        assertSame(new SpecRecord("x", null, null, "/", Map.of(), null, 0, 1, null, watch, null, null));
        assertNull(LeanJson.writeItself(watch), "a Duration");
        assertNull(LeanJson.writeItself(dev.runboard.session.StackLink.adHoc("q", Map.of())), "@JsonInclude, lent by SessionMixIns");
        assertSame(Settings.DEFAULTS);
        assertSame(Map.of("lone", "\uD800 surrogate", "nan", Double.NaN));
    }

    private static void assertSame(Object value) {
        assertEquals(Json.write(value), LeanJson.write(value));
        org.junit.jupiter.api.Assertions.assertArrayEquals(Json.write(value).getBytes(StandardCharsets.UTF_8),
                LeanJson.writeBytes(value), "as bytes");
    }

    /**
     * A snapshot's output and a record's preview are written as bytes from the preview's bytes: output
     * of every awkward kind — invalid UTF-8 (cut sequences, stray continuations, overlong forms,
     * surrogates' encodings), NUL and other control bytes, quotes and backslashes, multi-byte
     * characters — on either side of the omission marker, is written as Jackson writes its text.
     */
    @Test
    void outputOfAnyBytesIsWrittenAsBytesAsJacksonWritesItsText() {
        java.util.Random random = new java.util.Random(16);
        byte[] alphabet = {'a', 'Z', ' ', '\n', '\r', '\t', 0, 0x1B, 0x7F, '"', '\\', (byte) 0xC3, (byte) 0xA9,
            (byte) 0xE2, (byte) 0x80, (byte) 0xA6, (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80, (byte) 0xED,
            (byte) 0xA0, (byte) 0xC0, (byte) 0xFF};
        for (int round = 0; round < 300; round++) {
            byte[] output = new byte[random.nextInt(200)];
            for (int i = 0; i < output.length; i++) {
                output[i] = random.nextInt(3) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
            }
            OutputPreview preview = OutputPreview.of(output, 1 + random.nextInt(220));
            assertSame(snapshot(SessionStatus.COMPLETED, null, preview));
            java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
            assertSame(new SessionRecord(SessionRecord.SCHEMA, "20261130-101530-abcd",
                    new SpecRecord("true", null, null, "/", Map.of(), null, 0, 1, null, null, null, null), SessionStatus.COMPLETED,
                    4242L, 0, T0, T1, 0, null, null, b64.encodeToString(preview.headBytes()),
                    b64.encodeToString(preview.tailBytes()), output.length, null, null, null, null, null, null, null,
                    List.of(), null, null, null, null, null));
        }
    }

    static Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("B", "2");
        env.put("A", AWKWARD);
        return env;
    }

    static KillReport killReport() {
        return new KillReport("asked", "TERM", 5000, T0, 4242, List.of(new ProcessRef(4242, "sh -c x"), new ProcessRef(4243, AWKWARD)),
                true, List.of(new ProcessRef(4243, "sleep")), List.of(), T1, List.of(), List.of(), List.of("a note"));
    }

    private static SessionSnapshot snapshot(SessionStatus status, KillReport report, OutputPreview preview) {
        return new SessionSnapshot(status, "20261130-101530-abcd", "sleep 30", List.of("sleep", "30"), "/tmp", "/bin/sh",
                env(), 4242L, T0, T1, 29.5, 600.0, 5.0, 5, 137, "KILL", AWKWARD, preview, "/a/20261130.log", null,
                null, "/c/capture", report, new ResourceTotals(123456789, 0.0001), List.of(new SessionEvent(T1, "rule", AWKWARD)), "user@box", "disconnected",
                List.of(new dev.runboard.session.ProcessRef(4250, "sleep 600")),
                new dev.runboard.session.StackLink("web", "/w/runboard.yaml", "servers", Map.of("db", "ready"), 2, "20261130-101000-aaaa", true),
                Boolean.TRUE, new dev.runboard.session.RunProgress(0.42, 12.5, false, "output"));
    }
}
