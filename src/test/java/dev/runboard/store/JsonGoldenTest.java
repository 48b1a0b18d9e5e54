package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.SerializationFeature;
import dev.runboard.session.KillReport;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.OutputRule;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.ResourceTotals;
import dev.runboard.session.RunProgress;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.StackLink;
import dev.runboard.session.WatchSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON runboard writes — records on disk, snapshots on the socket and in {@code --json} — is a
 * contract: these values, with every field set, must print byte for byte as the files under
 * {@code src/test/resources/json/} (captured from the code before the JSON names moved out of
 * the session package), read back to equal values, and print the same again.
 *
 * <p>A deliberate change of the format rewrites the files: run this test with
 * {@code -Dgolden.write=DIR} and copy what it wrote into the resources after reading the diff.
 */
class JsonGoldenTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:15:30.123456789Z");
    private static final Instant T1 = Instant.parse("2026-11-30T10:16:00Z");
    private static final String ID = "20261130-101530-abcd";

    @Test
    void aSnapshotWithEveryFieldSetPrintsAsBefore() throws IOException {
        SessionSnapshot snapshot = snapshot();
        assertGolden("snapshot.json", Json.write(snapshot));
        assertEquals(Json.write(snapshot), new String(Json.writeBytes(snapshot), StandardCharsets.UTF_8), "as exec prints it");
    }

    @Test
    void aSnapshotOnTheSocketIsOneLineAndPrintsAsBeforeOnTheOtherSide() throws Exception {
        String line = Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(snapshot());
        assertGolden("snapshot-line.json", line);
        // The client prints what it received (show, wait --json): the same bytes as the snapshot printed directly.
        assertEquals(Json.write(snapshot()), Json.write(Json.mapper().readTree(line)));
    }

    @Test
    void aRecordWithEveryFieldSetPrintsAsBeforeAndReadsBackToItself() throws IOException {
        SessionRecord record = record();
        String written = Json.write(record);
        assertGolden("record.json", written);
        assertEquals(written, new String(Json.writeBytes(record), StandardCharsets.UTF_8), "as the store writes it");
        SessionRecord read = RecordReader.read(written.getBytes(StandardCharsets.UTF_8), ID);
        assertEquals(record, read);
        assertEquals(written, Json.write(read));
    }

    @Test
    void runboard01RecordsReadAndPrintAsBefore() throws IOException {
        for (String id : RecordFiles.SCHEMA_0_1_IDS) {
            SessionRecord read = RecordReader.read(RecordFiles.schema01(id), id);
            assertGolden("record-schema1-" + id + ".json", Json.write(read));
            assertEquals(read, RecordReader.read(Json.write(read).getBytes(StandardCharsets.UTF_8), id));
        }
    }

    @Test
    void aKillReportCrossesTheSocketUnchanged() throws IOException {
        KillReport report = killReport();
        assertGolden("kill-report.json", Json.write(report));
        assertEquals(report, Json.mapper().treeToValue(Json.mapper().valueToTree(report), KillReport.class));
    }

    @Test
    void anAdHocStackLinkLeavesOutWhatItHasNot() throws IOException {
        StackLink link = StackLink.adHoc("queue", Map.of("20261130-101000-aaaa", "success"));
        assertGolden("stack-adhoc.json", Json.write(link));
        assertEquals(link, Json.mapper().readValue(Json.write(link), StackLink.class));
    }

    @Test
    void aSpecWithEveryWatchCrossesTheSocketUnchanged() throws IOException {
        SpecRecord spec = record().spec();
        assertEquals(spec, Json.mapper().treeToValue(Json.mapper().valueToTree(spec), SpecRecord.class));
    }

    @Test
    void settingsWithRulesPrintAsBeforeAndReadBack() throws IOException {
        Settings settings = Settings.DEFAULTS.withDefaultRules(rules()).withSessionDefaults(7, 1500, 60_000L);
        String written = Json.write(settings);
        assertGolden("settings.json", written);
        assertEquals(settings, Json.mapper().readValue(written, Settings.class));
    }

    @Test
    void aHandWrittenRuleReadsInEitherCase() throws IOException {
        assertEquals(new OutputRule("x", OutputRule.Action.NOTIFY),
                Json.mapper().readValue("{\"pattern\": \"x\", \"action\": \"notify\"}", OutputRule.class));
        assertEquals(new OutputRule("y", OutputRule.Action.FAIL),
                Json.mapper().readValue("{\"action\": \" FAIL \", \"pattern\": \"y\"}", OutputRule.class));
    }

    private static List<OutputRule> rules() {
        return List.of(new OutputRule("FATAL", OutputRule.Action.FAIL), new OutputRule("WARN", OutputRule.Action.HIGHLIGHT),
                new OutputRule("done \"now\"", OutputRule.Action.NOTIFY));
    }

    private static Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("B", "2");
        env.put("A", "é \"quoted\" \\ \t tab");
        return env;
    }

    private static KillReport killReport() {
        return new KillReport("asked", "TERM", 5000, T0, 4242,
                List.of(new ProcessRef(4242, "sh -c x"), new ProcessRef(4243, "sleep 30")), true,
                List.of(new ProcessRef(4243, "sleep 30")), List.of(new ProcessRef(4250, "escaped")), T1,
                List.of(new ProcessRef(4260, "stuck")), List.of(new ProcessRef(4260, "stuck")),
                List.of("a group left alone"));
    }

    private static StackLink stack() {
        Map<String, String> deps = new LinkedHashMap<>();
        deps.put("db", "ready");
        deps.put("migrate", "success");
        return new StackLink("web", "/w/runboard.yaml", "servers", deps, 2, "20261130-101000-aaaa", true);
    }

    private static SessionSnapshot snapshot() {
        return new SessionSnapshot(SessionStatus.KILLED, ID, "sleep 30", List.of("sleep", "30"), "/tmp", "/bin/sh", env(),
                4242L, T0, T1, 29.5, 600.0, 5.0, 5, 137, "KILL", "killed by the user",
                OutputPreview.of("line 1\nline 2 é\nlast line".getBytes(StandardCharsets.UTF_8), 8),
                "/a/20261130.log", "disk full", ArtifactErrorCode.DISK_FULL.code(), "/c/capture", killReport(),
                new ResourceTotals(123456789, 0.25), List.of(new SessionEvent(T1, SessionEvent.RULE, "matched /FATAL/")),
                "user@box", "disconnected", List.of(new dev.runboard.session.ProcessRef(4250, "sleep 600")), stack(), Boolean.TRUE, new RunProgress(0.42, 12.5, true, "output"),
                new dev.runboard.session.SlurmJob("4711", "gpu-03", "gpu", "RUNNING", null));
    }

    private static SessionRecord record() {
        WatchSpec watch = new WatchSpec(rules(), Duration.ofSeconds(90), WatchSpec.HangAction.KILL, 1L << 30, 150.0,
                Duration.ofMillis(1500));
        SpecRecord spec = new SpecRecord(null, List.of("sh", "-c", "echo hi"), "/bin/bash", "/home/u", env(), 600_000L,
                5000, 65536, true, watch, 5, "user@box", null, null,
                new dev.runboard.session.SlurmTarget(List.of("--partition=gpu", "--gres=gpu:1")));
        return new SessionRecord(SessionRecord.SCHEMA, ID, spec, SessionStatus.FAILED, 4242L, 987654L, T0, T1, 3, "TERM",
                "matched /FATAL/", "aGVhZA==", "dGFpbA==", 1234, "note", "/a/b.log", "it failed",
                ArtifactErrorCode.DISK_FULL.code(), "/c/capture", killReport(), new ResourceTotals(1L << 33, 12.5),
                List.of(new SessionEvent(T0, SessionEvent.HANG, "no output for 30 s"),
                        new SessionEvent(T1, SessionEvent.GUARD, "RSS above 1 GiB")), stack(), Boolean.FALSE, null, "disconnected",
                new dev.runboard.session.SlurmJob("4711", "gpu-03", "gpu", "PENDING", "Resources"));
    }

    private static void assertGolden(String name, String actual) throws IOException {
        String dir = System.getProperty("golden.write");
        if (dir != null) {
            Files.writeString(Files.createDirectories(Path.of(dir)).resolve(name), actual);
        }
        try (InputStream in = JsonGoldenTest.class.getResourceAsStream("/json/" + name)) {
            if (in == null) {
                throw new IOException("missing test resource /json/" + name + " (run with -Dgolden.write=DIR to produce it)");
            }
            assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual, name);
        }
    }
}
