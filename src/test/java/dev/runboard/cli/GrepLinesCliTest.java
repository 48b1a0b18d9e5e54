package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.artifact.ArtifactFile;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.engine.SupervisorFixture.Result;
import dev.runboard.store.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lines {@code runboard grep} prints for one run: numbered as grep -n numbers them, a cut line marked. */
class GrepLinesCliTest {
    @TempDir
    Path dataDir;

    private Result cli(String... args) {
        return SupervisorFixture.cli(dataDir, args);
    }

    /** The matched lines grep printed, without the run's heading. */
    private List<String> matched(String... grepArgs) {
        String[] args = new String[grepArgs.length + 1];
        args[0] = "grep";
        System.arraycopy(grepArgs, 0, args, 1, grepArgs.length);
        Result grep = cli(args);
        assertEquals(0, grep.exit(), grep.out() + grep.err());
        return grep.out().lines().filter(l -> !l.startsWith("== ")).toList();
    }

    @Test
    void zeroWidthMatchesNumberTheLinesTheyEndAndNoLineFollowsTheLast() {
        Result exec = cli("exec", "--shell", "/bin/sh", "--", "printf 'alpha\\nbeta\\n'");
        assertEquals(0, exec.exit(), exec.err());
        assertEquals(List.of("1:alpha", "2:beta"), matched("$"));
        assertEquals(List.of("1:alpha", "2:beta"), matched(""));
        assertEquals(List.of("1:alpha", "2:beta"), matched("-i", "A$"));
        assertEquals(List.of("1:alpha", "2:beta"), matched("\\z"), "each line is its own subject, as in grep -P");
    }

    @Test
    void aLineLongerThanWhatIsPrintedSaysHowMuchIsCut() throws Exception {
        int extra = 5000;
        Result exec = cli("exec", "--shell", "/bin/sh", "--",
                "echo first; head -c " + (ArtifactFile.LINE_LIMIT + extra) + " /dev/zero | tr '\\0' x; echo ' needle'");
        assertEquals(0, exec.exit(), exec.err());
        List<String> lines = matched("needle");
        assertEquals(1, lines.size(), lines.toString());
        String shown = "2:" + "x".repeat(ArtifactFile.LINE_LIMIT);
        assertTrue(lines.get(0).startsWith(shown), lines.get(0).substring(0, 40));
        assertEquals("  \u27F6 line cut here: 4.9 KiB more not shown", lines.get(0).substring(shown.length()));

        JsonNode line = Json.mapper().readTree(cli("grep", "--json", "needle").out()).get(0).get("lines").get(0);
        assertEquals(extra + " needle".length(), line.get("cut_bytes").asLong());
    }
}
