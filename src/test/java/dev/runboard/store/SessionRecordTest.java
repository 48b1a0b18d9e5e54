package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.Session;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Sizes;
import dev.runboard.session.WatchSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records on disk: today's schema, runboard 0.1's migrated, and bad ones moved aside while the rest load. */
class SessionRecordTest {
    private static final String GOOD = RecordFiles.SCHEMA_0_1_IDS.get(0);
    private static final String KILLED = RecordFiles.SCHEMA_0_1_IDS.get(1);

    @TempDir
    Path dataDir;

    @Test
    void recordsOfRunboard01StillLoad() throws Exception {
        for (String id : RecordFiles.SCHEMA_0_1_IDS) {
            RecordFiles.write(dataDir, id, RecordFiles.schema01(id));
        }
        SessionStore store = new SessionStore(dataDir);
        SessionStore.LoadResult loaded = store.loadAll();
        assertEquals(List.of(), loaded.warnings());
        assertEquals(RecordFiles.SCHEMA_0_1_IDS, loaded.records().stream().map(SessionRecord::id).toList());

        SessionRecord failed = loaded.records().get(0);
        assertEquals(SessionRecord.SCHEMA, failed.schema(), "migrated when read");
        assertEquals(SessionStatus.FAILED, failed.status());
        assertEquals(3, failed.exitCode());
        SessionSpec spec = failed.spec().toSpec();
        assertEquals(Map.of("GREETING", "hi"), spec.env());
        assertEquals(5, spec.nice());
        assertEquals(1024, spec.previewBytes());
        WatchSpec watch = spec.watch();
        assertEquals(50L << 20, watch.maxRssBytes());
        assertEquals(Duration.ofSeconds(30), watch.hangAfter());
        assertEquals(Duration.ofSeconds(20), watch.cpuFor());
        assertEquals(2, watch.rules().size());
        OutputPreview preview = failed.preview();
        assertEquals(6092, preview.originalBytes());
        assertTrue(preview.truncated());
        assertEquals("line 200 of the build: WARN é", preview.lastLine());

        SessionRecord timedOut = loaded.records().get(1);
        assertEquals(SessionStatus.TIMEOUT, timedOut.status());
        assertEquals(List.of("sh", "-c", "echo started; sleep 30"), timedOut.spec().toSpec().argv());
        assertEquals(Duration.ofSeconds(1), timedOut.spec().toSpec().timeout());
        assertEquals(3, timedOut.killReport().signalled().size());
        assertEquals(10_784_768, timedOut.resources().peakRssBytes());
        for (SessionRecord r : loaded.records()) {
            RecordFiles.use(store, r);
        }
        for (String id : RecordFiles.SCHEMA_0_1_IDS) {
            assertArrayEquals(RecordFiles.schema01(id), Files.readAllBytes(store.file(id, SessionStore.RECORD)),
                    "reading never rewrites a record");
        }
    }

    @Test
    void limitsOf01BeyondTodaysRangesAreBroughtIntoRangeNotRefused() throws Exception {
        ObjectNode old = RecordFiles.schema01Tree(GOOD);
        ObjectNode spec = (ObjectNode) old.get("spec");
        spec.put("preview_bytes", Integer.MAX_VALUE);
        spec.put("timeout_ms", Long.MAX_VALUE);
        spec.put("grace_ms", 9_200_000_000_000L);
        ObjectNode watch = (ObjectNode) spec.get("watch");
        watch.put("max_rss_bytes", 1024);
        watch.put("hang_after", 1e12);
        RecordFiles.write(dataDir, GOOD, old);

        SessionStore.LoadResult loaded = new SessionStore(dataDir).loadAll();
        assertEquals(List.of(), loaded.warnings());
        SessionSpec s = loaded.records().get(0).spec().toSpec();
        assertEquals(SessionSpec.MAX_PREVIEW_BYTES, s.previewBytes());
        assertEquals(SessionSpec.MAX_TIMEOUT, s.timeout());
        assertEquals(SessionSpec.MAX_GRACE, s.grace());
        assertEquals(WatchSpec.MIN_RSS_BYTES, s.watch().maxRssBytes());
        assertEquals(SessionSpec.MAX_TIMEOUT, s.watch().hangAfter());

        // The same values in a record of today's schema were never written by runboard: corrupt.
        old.put("schema", SessionRecord.SCHEMA);
        RecordFiles.write(dataDir, GOOD, old);
        List<String> warnings = new SessionStore(dataDir).loadAll().warnings();
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("is not a valid record (spec.timeout_ms must be at most 365 days"), warnings.get(0));
    }

    @Test
    void todaysRecordsCarryTheSchemaAndRoundTrip() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        SessionRecord record = finished("20261201-101010-abcdef", "hello\n".getBytes(), SessionSpec.DEFAULT_PREVIEW_BYTES);
        store.save(record);
        ObjectNode saved = (ObjectNode) Json.mapper().readTree(store.file(record.id(), SessionStore.RECORD).toFile());
        assertEquals(SessionRecord.SCHEMA, saved.get("schema").asInt());
        assertFalse(saved.has("format"), "0.1's format field is not written any more");
        SessionRecord back = store.load(record.id()).orElseThrow();
        assertEquals(record.spec(), back.spec());
        assertEquals("hello\n", back.preview().text());
        RecordFiles.use(store, back);
    }

    /** A Slurm session started before --output became runboard's alone: its record is old, not corrupt, and loads. */
    @Test
    void aRecordWithAnSbatchOptionRunboardNowKeepsToItselfStillLoads() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        SessionRecord done = finished("20261201-101011-abcdef", "trained\n".getBytes(), SessionSpec.DEFAULT_PREVIEW_BYTES);
        SessionSpec slurm = SessionSpec.shell("make").shell(Path.of("/bin/sh")).cwd(Path.of("/tmp"))
                .slurm(new dev.runboard.session.SlurmTarget(List.of("--partition=gpu", "--output=mine.log"))).build();
        SessionRecord old = SessionRecord.of(Session.restore(done.id(), slurm, null, Clock.systemUTC(), 4242L, 99,
                Instant.parse("2026-12-01T10:10:11Z"), null, null), done.outcome());
        store.save(old);
        SessionStore.LoadResult loaded = store.loadAll();
        assertEquals(List.of(), loaded.warnings());
        assertEquals(slurm.slurm(), loaded.records().get(0).spec().slurm(), "its sbatch arguments as they were");
        assertThrows(dev.runboard.session.InvalidSpecException.class, slurm::validate, "a new start with it is refused");
    }

    @Test
    void aRecordReadWithoutItsPreviewIsTheSameRecordWithAnEmptyPreview() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        byte[] output = new byte[5000];
        new Random(3).nextBytes(output);
        SessionRecord record = finished("20261201-101012-abcdef", output, SessionSpec.DEFAULT_PREVIEW_BYTES);
        store.save(record);
        SessionRecord whole = store.load(record.id()).orElseThrow();
        SessionRecord without = store.loadWithoutPreview(record.id()).orElseThrow();
        assertTrue(whole.outputHead().length() > 1000, "the record has a preview to leave out");
        assertEquals(whole.withoutPreview(), without);
        assertEquals("", without.outputHead());
        assertEquals(record.outputBytes(), without.outputBytes());
        // A record of runboard 0.1 (read through the tree) leaves it out the same way.
        RecordFiles.write(dataDir, GOOD, RecordFiles.schema01(GOOD));
        assertEquals(store.load(GOOD).orElseThrow().withoutPreview(), store.loadWithoutPreview(GOOD).orElseThrow());
    }

    @Test
    void aPreviewAtTheLargestBoundStillLoads() throws Exception {
        byte[] output = new byte[SessionSpec.MAX_PREVIEW_BYTES];
        new Random(7).nextBytes(output); // random: base64 is as long as it gets
        SessionStore store = new SessionStore(dataDir);
        SessionRecord record = finished("20261201-101011-abcdef", output, SessionSpec.MAX_PREVIEW_BYTES);
        store.save(record);
        assertTrue(Files.size(store.file(record.id(), SessionStore.RECORD)) > 22_000_000);
        SessionStore.LoadResult loaded = store.loadAll();
        assertEquals(List.of(), loaded.warnings());
        assertEquals(output.length, loaded.records().get(0).preview().originalBytes());
    }

    @Test
    void wrongButValidJsonIsMovedAsideWithOneWarningAndTheRestLoad() throws Exception {
        Map<String, Consumer<ObjectNode>> wrongs = new java.util.LinkedHashMap<>();
        wrongs.put("spec is missing", r -> r.remove("spec"));
        wrongs.put("started_at is missing", r -> r.set("started_at", NullNode.instance));
        wrongs.put("spec.cwd is missing", r -> ((ObjectNode) r.get("spec")).set("cwd", NullNode.instance));
        wrongs.put("output_tail is not base64", r -> r.put("output_tail", "not base64 at all!"));
        wrongs.put("session_id '../../x' is not a session id", r -> r.put("session_id", "../../x"));
        wrongs.put("is not its folder's name", r -> r.put("session_id", KILLED));
        wrongs.put("status is missing", r -> r.remove("status"));
        wrongs.put("spec needs exactly one of command and argv", r -> spec(r).putNull("command"));
        wrongs.put("spec.cwd is not a path", r -> ((ObjectNode) r.get("spec")).put("cwd", "/tmp/a\u0000b"));
        wrongs.put("output_bytes is negative", r -> r.put("output_bytes", -1));
        wrongs.put("the preview holds", r -> r.put("output_bytes", 3));
        wrongs.put("started_at +100000-01-01T00:00:00Z is not a time", r -> r.put("started_at", "+100000-01-01T00:00:00Z"));
        wrongs.put("schema \"two\" is not a schema number", r -> r.put("schema", "two"));
        wrongs.put("spec.preview_bytes must be 1 KiB to 16 MiB", r -> spec(r.put("schema", 2)).put("preview_bytes", 10));
        wrongs.put("spec.grace_ms cannot be negative", r -> spec(r).put("grace_ms", -5));
        wrongs.put("pid -4 is not a process id", r -> r.put("pid", -4));
        wrongs.put("is not a valid regex", r -> ((ObjectNode) spec(r).get("watch")).withArray("rules").addObject()
                .put("pattern", "(").put("action", "FAIL"));
        wrongs.put("resources are negative", r -> ((ObjectNode) r.get("resources")).put("cpu_seconds", -1));
        wrongs.put("it is not a JSON object", r -> { });
        for (Map.Entry<String, Consumer<ObjectNode>> wrong : wrongs.entrySet()) {
            Path dir = Files.createTempDirectory(dataDir, "case");
            RecordFiles.write(dir, KILLED, RecordFiles.schema01(KILLED));
            ObjectNode bad = RecordFiles.schema01Tree(GOOD);
            wrong.getValue().accept(bad);
            Path file = wrong.getKey().startsWith("it is not") ? RecordFiles.write(dir, GOOD, "[1, 2]".getBytes())
                    : RecordFiles.write(dir, GOOD, bad);

            SessionStore store = new SessionStore(dir);
            SessionStore.LoadResult loaded = store.loadAll();
            assertEquals(1, loaded.warnings().size(), wrong.getKey() + ": " + loaded.warnings());
            String warning = loaded.warnings().get(0);
            assertTrue(warning.contains("is not a valid record (") && warning.contains(wrong.getKey()) && warning.contains("moved to"),
                    wrong.getKey() + ": " + warning);
            assertEquals(List.of(KILLED), loaded.records().stream().map(SessionRecord::id).toList(), wrong.getKey());
            assertFalse(Files.exists(file), wrong.getKey());
            assertTrue(Files.exists(dir.resolve("corrupt").resolve(GOOD + "-session.json")), wrong.getKey());
            assertEquals(List.of(), store.loadAll().warnings(), "once moved aside, it is not reported again");
        }
    }

    @Test
    void aNewerSchemaIsSkippedAndLeftInPlace() throws Exception {
        ObjectNode newer = RecordFiles.schema01Tree(GOOD);
        newer.put("schema", SessionRecord.SCHEMA + 1);
        newer.put("something_new", true);
        Path file = RecordFiles.write(dataDir, GOOD, newer);
        RecordFiles.write(dataDir, KILLED, RecordFiles.schema01(KILLED));
        SessionStore store = new SessionStore(dataDir);
        SessionStore.LoadResult loaded = store.loadAll();
        assertEquals(List.of(KILLED), loaded.records().stream().map(SessionRecord::id).toList());
        assertEquals(1, loaded.warnings().size());
        assertTrue(loaded.warnings().get(0).contains("written by a newer runboard (schema 3"), loaded.warnings().get(0));
        assertTrue(Files.exists(file), "not ours to move");
        assertThrows(NewerRecordException.class, () -> store.load(GOOD));
    }

    @Test
    void aSecondBadRecordOfTheSameIdDoesNotReplaceTheFirstInCorrupt() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        RecordFiles.write(dataDir, GOOD, "{\"status\": \"compl".getBytes());
        assertEquals(1, store.loadAll().warnings().size());
        RecordFiles.write(dataDir, GOOD, "{}".getBytes());
        assertEquals(1, store.loadAll().warnings().size());
        try (Stream<Path> moved = Files.list(dataDir.resolve("corrupt"))) {
            assertEquals(2, moved.count());
        }
    }

    @Test
    void foldersAndIdsThatAreNotSessionIdsNeverReachOutside() throws Exception {
        Files.createDirectories(dataDir.resolve("sessions").resolve("not an id"));
        Files.createDirectories(dataDir.resolve("sessions").resolve("..x"));
        RecordFiles.write(dataDir, KILLED, RecordFiles.schema01(KILLED));
        SessionStore store = new SessionStore(dataDir);
        assertEquals(List.of(KILLED), store.ids());
        SessionStore.LoadResult loaded = store.loadAll();
        assertEquals(2, loaded.warnings().size(), loaded.warnings().toString());
        assertTrue(loaded.warnings().get(0).contains("is not a session (its name is not a session id)"), loaded.warnings().get(0));
        assertTrue(Files.isDirectory(dataDir.resolve("sessions").resolve("not an id")), "left as it is");
        assertThrows(CorruptRecordException.class, () -> store.load("../../x"));
        assertThrows(IllegalArgumentException.class, () -> store.dirOf("../x"));
        assertThrows(IllegalArgumentException.class, () -> store.dirOf("/etc"));
        assertNull(store.load("20991231-000000-000000").orElse(null));
    }

    private static ObjectNode spec(ObjectNode record) {
        return (ObjectNode) record.get("spec");
    }

    private static SessionRecord finished(String id, byte[] output, int bound) {
        SessionSpec spec = SessionSpec.shell("make").shell(Path.of("/bin/sh")).cwd(Path.of("/tmp")).previewBytes(bound)
                .timeout(Duration.ofMinutes(5)).watch(WatchSpec.NONE.withMaxRss(Sizes.parse("50M"))).build();
        Instant start = Instant.parse("2026-12-01T10:10:10Z");
        Session s = Session.restore(id, spec, null, Clock.systemUTC(), 4242L, 99, start, null, null);
        SessionOutcome outcome = new SessionOutcome(SessionStatus.COMPLETED, start.plusSeconds(3), 0, null, "exited with code 0",
                OutputPreview.of(output, bound), null, null, null, null);
        return SessionRecord.of(s, outcome);
    }
}
