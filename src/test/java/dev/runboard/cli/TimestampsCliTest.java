package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.artifact.TimeIndex;
import dev.runboard.engine.SupervisorFixture.Result;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.store.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tail --timestamps}: each line stamped with when it was written, from the owner's time index.
 * The tests share one data dir and its supervisor, each reading its own session.
 */
class TimestampsCliTest {
    @TempDir
    static Path dataDir;

    @AfterAll
    static void stopSupervisor() throws Exception {
        new SupervisorFixture(dataDir).close();
    }

    private static Result cli(String... args) {
        return SupervisorFixture.cli(dataDir, args);
    }

    private String tail(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TailCommand tail = new TailCommand();
        tail.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<String> all = new ArrayList<>(List.of("--data-dir", dataDir.toString()));
        all.addAll(List.of(args));
        assertEquals(0, new picocli.CommandLine(tail).execute(all.toArray(String[]::new)));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void linesPrintedASecondApartAreStampedASecondApart() throws Exception {
        Result started = cli("start", "--shell", "/bin/sh", "--", "for i in 1 2 3 4 5 6; do echo line $i; sleep 1; done");
        assertEquals(0, started.exit(), started.err());
        String id = started.out().strip();
        // Followed while it runs: each line waits for the index to reach it, none is lost.
        String out = tail("-f", "--timestamps", id);
        List<String> lines = out.lines().toList();
        assertEquals(6, lines.size(), out);
        List<Long> gaps = new ArrayList<>();
        LocalTime previous = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            assertTrue(line.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d line " + (i + 1)), line);
            LocalTime t = LocalTime.parse(line.substring(0, 12));
            if (previous != null) {
                gaps.add(Math.floorMod(previous.until(t, ChronoUnit.MILLIS), 86_400_000L));
            }
            previous = t;
        }
        Collections.sort(gaps);
        long median = gaps.get(gaps.size() / 2);
        // One line a second; the index is at most 100 ms late, a loaded machine's sleep a little more.
        assertTrue(Math.abs(median - 1000) <= 350, "gaps " + gaps);
        // Read again after the end, from the artifact or kept capture: the same stamps.
        assertEquals(out, tail("--timestamps", id));
    }

    @Test
    void execSessionsKeepATimeIndexBesideTheirOutput() throws Exception {
        Result exec = cli("exec", "--shell", "/bin/sh", "--", "seq 1 200000; sleep 0.3; echo last");
        assertEquals(0, exec.exit(), exec.err());
        JsonNode snap = Json.mapper().readTree(exec.out());
        Path raw = Path.of(snap.get("raw_output").asText());
        assertTrue(Files.exists(TimeIndex.fileFor(raw)), "no index beside " + raw);
        TimeIndex index = TimeIndex.read(raw);
        assertEquals(Files.size(raw), index.covered(), "the last entry covers the whole output");
        String out = tail("--timestamps", snap.get("session_id").asText());
        List<String> lines = out.lines().toList();
        assertEquals(200_001, lines.size());
        assertTrue(lines.get(0).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d 1"), lines.get(0));
        assertTrue(lines.get(200_000).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d last"), lines.get(200_000));
        LocalTime first = LocalTime.parse(lines.get(199_999).substring(0, 12));
        LocalTime last = LocalTime.parse(lines.get(200_000).substring(0, 12));
        assertTrue(first.until(last, ChronoUnit.MILLIS) >= 200, "the sleep shows between the two lines: " + first + " " + last);
    }
}
