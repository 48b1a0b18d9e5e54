package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.cli.ClientCall;
import dev.runboard.cli.RunboardCli;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue #45: {@code runboard logs} merges a stack's outputs, restarts included, each line once. */
class LogsCliTest {
    /** Three commands printing numbered lines; {@code c} fails its first run and is restarted once. */
    static final String STACK = """
            commands:
              a:
                command: for i in 1 2 3 4 5 6 7 8; do echo a-$i; sleep 0.25; done
                shell: /bin/sh
                autostart: true
              b:
                command: for i in 1 2 3 4 5 6 7 8; do echo b-$i; sleep 0.3; done
                shell: /bin/sh
                autostart: true
              c:
                command: if [ -e ran ]; then r=2; else r=1; touch ran; fi; for i in 1 2 3 4 5; do echo c-$r-$i; sleep 0.25; done; [ $r = 2 ]
                shell: /bin/sh
                autostart: true
                restart: on-failure
                backoff: {initial: 500ms, limit: 1}
            """;

    @TempDir
    Path dir;
    SupervisorFixture sv;
    Path file;

    @BeforeEach
    void setUp() throws Exception {
        sv = new SupervisorFixture(dir.resolve("data"));
        Path root = Files.createDirectories(dir.resolve("stack"));
        file = Files.writeString(root.resolve("runboard.yaml"), STACK);
    }

    @AfterEach
    void tearDown() throws Exception {
        sv.close();
    }

    private static List<String> expected() {
        List<String> all = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            all.add("a-" + i);
            all.add("b-" + i);
        }
        for (int r = 1; r <= 2; r++) {
            for (int i = 1; i <= 5; i++) {
                all.add("c-" + r + "-" + i);
            }
        }
        return all;
    }

    @Test
    void followShowsEveryLineOnceInTimeOrderThroughARestart() throws Exception {
        SupervisorFixture.Result up = sv.cli("up", "-f", file.toString());
        assertEquals(0, up.exit(), up.out() + up.err());
        // Follows while the stack runs, and ends by itself once every run (the restart too) has ended.
        CompletableFuture<SupervisorFixture.Result> following = CompletableFuture.supplyAsync(
                () -> sv.cli("logs", "--file", file.toString(), "-f", "--json"));
        SupervisorFixture.Result logs = following.get(120, TimeUnit.SECONDS);
        assertEquals(0, logs.exit(), logs.err());

        List<JsonNode> entries = new ArrayList<>();
        for (String line : logs.out().split("\n")) {
            entries.add(Json.mapper().readTree(line));
        }
        List<String> lines = entries.stream().map(e -> e.path("line").asText()).toList();
        assertEquals(expected().size(), lines.size(), "every line once: " + lines);
        assertEquals(new java.util.HashSet<>(expected()), new java.util.HashSet<>(lines), "every line once: " + lines);

        // Each command's lines in their own order, the restart's after the first run's, from two sessions.
        Map<String, List<String>> byName = new HashMap<>();
        Map<String, java.util.Set<String>> sessions = new HashMap<>();
        for (JsonNode e : entries) {
            byName.computeIfAbsent(e.path("name").asText(), k -> new ArrayList<>()).add(e.path("line").asText());
            sessions.computeIfAbsent(e.path("name").asText(), k -> new java.util.HashSet<>()).add(e.path("session").asText());
        }
        assertEquals(expected().stream().filter(l -> l.startsWith("c-")).toList(), byName.get("c"));
        assertEquals(expected().stream().filter(l -> l.startsWith("a-")).toList(), byName.get("a"));
        assertEquals(2, sessions.get("c").size(), "the first run and its restart");
        assertEquals(1, sessions.get("a").size());

        // In time order, within the index's resolution: no line more than that before one printed ahead of it.
        long latest = 0;
        for (JsonNode e : entries) {
            long t = Instant.parse(e.path("time").asText()).toEpochMilli();
            assertTrue(t >= latest - dev.runboard.artifact.TimeIndex.RESOLUTION_MILLIS, "out of order at " + e + " in " + logs.out());
            latest = Math.max(latest, t);
        }

        // Without -f, the same log at once, each line after its command's name, padded; no colour to a pipe.
        SupervisorFixture.Result again = sv.cli("logs", "--file", file.toString());
        assertEquals(0, again.exit(), again.err());
        List<String> plain = again.out().lines().toList();
        assertEquals(expected().size(), plain.size(), again.out());
        assertTrue(plain.contains("a | a-1"), again.out());
        assertTrue(plain.contains("c | c-2-5"), again.out());
        assertFalse(again.out().contains("\033["), "no colour when stdout is not a terminal");

        // Only some commands.
        SupervisorFixture.Result onlyC = sv.cli("logs", "--file", file.toString(), "c");
        assertEquals(10, onlyC.out().lines().count(), onlyC.out());
    }

    @Test
    void aTerminalGetsEachNameInItsOwnColourAndAnUnknownNameIsRefused() throws Exception {
        SupervisorFixture.Result up = sv.cli("up", "-f", file.toString(), "a");
        assertEquals(0, up.exit(), up.out() + up.err());
        dev.runboard.process.Await.until(java.time.Duration.ofSeconds(60), "a to end", () -> {
            SupervisorFixture.Result l = sv.cli("logs", "--file", file.toString());
            return l.out().contains("a-8");
        });
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RunboardCli.run(new String[] {"logs", "--data-dir", sv.dataDir().toString(), "--file", file.toString()},
                new ClientCall(ClientCall.ofThisProcess().environment(), ClientCall.ofThisProcess().folder(), true), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        int colour = new int[] {36, 33, 32, 35, 34, 31}[dev.runboard.stack.StackLog.colourOf("a")];
        assertTrue(out.toString().startsWith("\033[" + colour + "ma | \033[0ma-1\n"), out.toString());

        SupervisorFixture.Result unknown = sv.cli("logs", "--file", file.toString(), "a", "web");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("'web' is not a command of") && unknown.err().contains("(commands: a, b, c)"),
                unknown.err());
    }
}
