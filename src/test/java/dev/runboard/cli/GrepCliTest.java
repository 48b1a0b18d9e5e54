package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture.Result;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.store.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runboard grep} over the outputs of many runs: grouped by run, exit codes like grep's. */
class GrepCliTest {
    @TempDir
    static Path dataDir;
    private static final List<String> ids = new ArrayList<>();

    private static Result cli(String... args) {
        return SupervisorFixture.cli(dataDir, args);
    }

    /**
     * Ten runs of 2,000 numbered lines; run 7 (an artifact: its output outgrew the preview) says "connection
     * reset" once. Made once for the class: grep only reads them.
     */
    @BeforeAll
    static void tenRuns() throws Exception {
        for (int run = 1; run <= 10; run++) {
            String planted = run == 7 ? "; echo 'read: connection reset by peer'; seq 2001 2500" : "";
            Result exec = cli("exec", "--preview-bytes", "4K", "--shell", "/bin/sh", "--",
                    "echo run " + run + "; seq 2 2000" + planted);
            assertEquals(0, exec.exit(), exec.err());
            ids.add(Json.mapper().readTree(exec.out()).get("session_id").asText());
        }
    }

    @Test
    void findsTheOneLinePlantedInOneOfTenRuns() throws Exception {
        Result grep = cli("grep", "connection reset");
        assertEquals(0, grep.exit(), grep.err());
        List<String> lines = grep.out().lines().toList();
        assertEquals(2, lines.size(), grep.out());
        assertTrue(lines.get(0).startsWith("== " + ids.get(6) + "  echo run 7; seq 2 2000;"), lines.get(0));
        assertTrue(lines.get(0).contains("(started "), lines.get(0));
        assertEquals("2001:read: connection reset by peer", lines.get(1));

        // A regex (literal prefilter, then the regex per line) finds it too; the JSON says where it is.
        Result json = cli("grep", "--json", "-i", "CONNECTION \\w+ BY");
        assertEquals(0, json.exit(), json.err());
        JsonNode runs = Json.mapper().readTree(json.out());
        assertEquals(1, runs.size());
        assertEquals(ids.get(6), runs.get(0).get("session_id").asText());
        JsonNode line = runs.get(0).get("lines").get(0);
        assertEquals(2001, line.get("line").asLong());
        assertEquals("read: connection reset by peer", line.get("text").asText());
    }

    @Test
    void groupsByRunAndFiltersByCommand() {
        Result grep = cli("grep", "^run (3|9)$");
        assertEquals(0, grep.exit(), grep.err());
        assertEquals(List.of("== " + ids.get(2), "1:run 3", "", "== " + ids.get(8), "1:run 9"),
                grep.out().lines().map(l -> l.startsWith("== ") ? l.substring(0, 3 + ids.get(0).length()) : l).toList());
        Result filtered = cli("grep", "--command", "echo run 9;", "^run");
        assertEquals(2, filtered.out().lines().count(), filtered.out());
    }

    @Test
    void exitsOneWhenNothingMatchesAndTwoOnABadRegex() {
        Result none = cli("grep", "no such line");
        assertEquals(1, none.exit(), none.out() + none.err());
        assertEquals("", none.out());
        Result bad = cli("grep", "broken(");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().startsWith("runboard grep: not a valid regex"), bad.err());
    }
}
