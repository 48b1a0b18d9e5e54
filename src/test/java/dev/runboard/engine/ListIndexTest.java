package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.Session;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.DataDirs;
import dev.runboard.store.Json;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import dev.runboard.store.Settings;
import dev.runboard.store.SettingsStore;
import dev.runboard.testing.Stress;
import dev.runboard.testing.TestScale;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code runboard list} over a heavy user's history (10,000 ended sessions; 2,000 in the fast suite): the lean client's
 * output is byte for byte what {@code list} printed before the supervisor rendered the lines (the
 * old formatter, kept below, over {@code list --json}), from the supervisor's memory and, with no
 * supervisor up, from the index it left, without starting one; a session added since makes the
 * index stale and a supervisor answers again.
 */
@Stress
class ListIndexTest {
    private static final int SESSIONS = TestScale.size(10_000);

    @TempDir
    Path dataDir;

    @Test
    void listOfAHeavyHistoryIsTheSameFromTheSupervisorAndFromTheIndexItLeaves() throws Exception {
        new SettingsStore(dataDir).save(Settings.DEFAULTS.withRetention(20_000, Settings.DEFAULT_KEEP_ARTIFACT_BYTES));
        // Records written straight through the store (no fsync each: this is a fixture, not the engine's writes).
        SessionStore store = new SessionStore(dataDir, (target, content) -> Files.write(DataDirs.createPrivateFile(target), content));
        Instant t0 = Instant.parse("2026-11-01T08:00:00Z");
        for (int i = 0; i < SESSIONS; i++) {
            store.save(ended(i, t0.plusSeconds(i * 7L)));
        }

        // Not closed with try: its close looks for left-over processes of every session, and these ran none.
        SupervisorFixture fx = new SupervisorFixture(dataDir);
        try {
            SupervisorFixture.Result json = fx.cli("list", "--json");
            assertEquals(0, json.exit(), json.err());
            JsonNode all = Json.mapper().readTree(json.out());
            assertEquals(SESSIONS, all.size());
            String expected = formerList(all, null);
            String failed = formerList(all, "failed");

            assertEquals(expected, quick("list").out(), "from the supervisor's memory");
            assertEquals(expected, quick("list").out(), "again, with the ended sessions' lines kept");
            assertEquals(failed, quick("list", "--status", "FAILED").out());
            assertEquals(expected, fx.cli("list").out(), "the full CLI prints the same");

            long pid = fx.supervisorPid();
            assertEquals(0, fx.cli("supervisor", "stop").exit());
            Await.until(Duration.ofSeconds(30), "the supervisor to exit", () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
            assertTrue(Files.isRegularFile(dataDir.resolve(ListIndex.FILE)), "the supervisor left its index");

            assertEquals(expected, quick("list").out(), "from the index");
            assertEquals(failed, quick("list", "--status=failed").out(), "from the index, filtered");
            assertEquals(-1, fx.supervisorPid(), "answered without starting a supervisor");

            // exec writes its own records: a session the index does not know makes it stale.
            store.save(ended(SESSIONS, t0.plusSeconds(SESSIONS * 7L)));
            String after = quick("list").out();
            assertTrue(after.contains(id(SESSIONS)), after.lines().reduce((a, b) -> b).orElse(""));
            assertEquals(SESSIONS + 2, after.lines().count());
            assertTrue(fx.supervisorPid() > 0, "a supervisor answered");
        } finally {
            long pid = fx.supervisorPid();
            fx.client().stop();
            if (pid > 0) {
                Await.until(Duration.ofSeconds(30), "the supervisor to exit", () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
            }
        }
    }

    /** bin/runboard's thin client: the supervisor runs the command when one is up, else the JVM it hands over to. */
    private SupervisorFixture.Result quick(String... args) throws Exception {
        ThinClient.Run run = ThinClient.of(dataDir).run(args);
        assertEquals(0, run.exit(), run.err());
        return new SupervisorFixture.Result(run.exit(), run.text(), run.err());
    }

    private static String id(int i) {
        return String.format(Locale.ROOT, "20261101-%06d-%06x", i / 100, i);
    }

    /** Ended sessions of every kind list shows: exit codes, signals, long and multi-line commands, all durations. */
    private static SessionRecord ended(int i, Instant start) {
        String command = switch (i % 5) {
            case 0 -> "make test";
            case 1 -> "exit 3";
            case 2 -> "printf 'two\\nlines' && echo \u00e9t\u00e9 \u2713";
            case 3 -> "./gradlew build --scan -Pci=true -Dorg.gradle.jvmargs=-Xmx4g " + "x".repeat(60);
            default -> "sleep 600";
        };
        SessionSpec spec = SessionSpec.shell(command).shell(Path.of("/bin/sh")).cwd(Path.of("/tmp")).build();
        Session s = Session.restore(id(i), spec, null, Clock.systemUTC(), 1000L + i, 99, start, null, null);
        long seconds = new long[] {0, 3, 59, 61, 3599, 3601, 90_000}[i % 7];
        SessionOutcome outcome = switch (i % 5) {
            case 1 -> new SessionOutcome(SessionStatus.FAILED, start.plusMillis(seconds * 1000 + 250), 3, null,
                    "exited with code 3", OutputPreview.of(new byte[0], 1024), null, null, null, null);
            case 4 -> new SessionOutcome(SessionStatus.KILLED, start.plusSeconds(seconds), null, "TERM",
                    "killed by the user", OutputPreview.of(new byte[0], 1024), null, null, null, null);
            default -> new SessionOutcome(SessionStatus.COMPLETED, start.plusMillis(seconds * 1000 + 40), 0, null,
                    "exited with code 0", OutputPreview.of("ok\n".getBytes(StandardCharsets.UTF_8), 1024), null, null, null, null);
        };
        return SessionRecord.of(s, outcome);
    }

    // --- list's text as cli/ListCommand made it from the snapshots' JSON before ListRows (EXIT since widened, HOST added)

    private static String formerList(JsonNode sessions, String status) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-22s %-9s %9s %9s %-17s %-16s  %s%n", "ID", "STATUS", "ELAPSED", "EXIT", "PROGRESS", "HOST",
                "COMMAND"));
        for (JsonNode s : sessions) {
            if (status == null || status.equals(s.path("status").asText())) {
                out.append(String.format(Locale.ROOT, "%-22s %-9s %9s %9s %-17s %-16s  %s%n", s.path("session_id").asText(),
                        s.path("status").asText(), elapsed(s.path("elapsed_seconds").asDouble()), exit(s), progress(s),
                        s.hasNonNull("host") ? s.get("host").asText() : "-",
                        oneLine(s.path("command").asText()) + stackNote(s)));
            }
        }
        return out.toString();
    }

    private static String stackNote(JsonNode s) {
        String status = s.path("status").asText();
        String note = "";
        if (s.hasNonNull("ready") && status.equals("running")) {
            note = s.get("ready").asBoolean() ? "  [ready]" : "  [starting]";
        }
        if ((status.equals("pending") || status.equals("queued") || status.equals("skipped")) && s.hasNonNull("reason")) {
            note += "  (" + s.get("reason").asText() + ")";
        }
        return note;
    }

    private static String exit(JsonNode s) {
        if (s.hasNonNull("signal")) {
            return "SIG" + s.get("signal").asText();
        }
        return s.hasNonNull("exit_code") ? s.get("exit_code").asText() : "-";
    }

    private static String progress(JsonNode s) {
        if (s.path("longer_than_usual").asBoolean()) {
            return "longer than usual";
        }
        if (!s.hasNonNull("progress")) {
            return "-";
        }
        String eta = s.hasNonNull("eta_seconds") ? " " + elapsed(s.get("eta_seconds").asDouble()) + " left" : "";
        return Math.round(s.get("progress").asDouble() * 100) + "%" + eta;
    }

    private static String elapsed(double seconds) {
        long s = (long) seconds;
        if (s < 60) {
            return String.format(Locale.ROOT, "%.1fs", seconds);
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    private static String oneLine(String command) {
        String flat = command.replace('\n', ' ');
        return flat.length() > 80 ? flat.substring(0, 79) + "\u2026" : flat;
    }
}
