package dev.runboard.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Stress;
import dev.runboard.testing.TestScale;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feeds mutated {@code runboard.yaml} files (flipped bytes, lost and doubled lines, aliases,
 * anchors, merge keys, second documents, tags, huge and odd values, deep nesting) to the workspace
 * loader: nothing but a {@link WorkspaceException} comes out, and a file that loads gives
 * commands that become specs and save back to the same content.
 */
class WorkspaceFuzzTest {
    private static final long SEED = 20261202L;
    private static final int ROUNDS = TestScale.size(400);
    private static final List<String> SNIPPETS = List.of("---", "...", "    command: *c", "  x: &c echo", "    <<: *base",
            "  base: &base", "    command: !!binary ZWNobw==", "    timeout: 99999999999999999999", "    grace: NaN",
            "    grace: -1", "    nice: 1e400", "    nice: 99999999999", "    timeout: 9000h", "    timeout: 1h30", "\tcommand: x",
            "? [a, b]", "  [", "  {", "    cwd: \"a\\0b\"", "    env: {A: null}", "    env: {\"\": x}", "    argv: [null]",
            "    argv: []", "    command: \"\"", "    output: 5", "    pty: yes", "    autostart: ~", "%YAML 1.2", "!!map",
            "    command: " + "x".repeat(100_000), "    group: " + "[".repeat(200) + "]".repeat(200), "name: *nope",
            "  web: !custom {command: x}", "commands: []", "commands: ~", "- item");

    @TempDir
    Path root;

    @Test
    @Stress
    @Timeout(60) // a few seconds; only a hang would reach this
    void noMutatedFileEscapesTheLoader() throws Exception {
        Random random = new Random(SEED);
        List<String> seeds = List.of(WorkspaceYamlTest.EXAMPLE,
                "commands:\n  web:\n    command: ./serve\n    timeout: 5m\n    grace: 500ms\n",
                "name: tiny\ncommands:\n  a:\n    argv: [ls, -l]\n    env:\n      X: \"1\"\n    nice: 3\n");
        int loaded = 0;
        for (int round = 0; round < ROUNDS; round++) {
            String text = mutate(seeds.get(random.nextInt(seeds.size())), random);
            Path dir = Files.createDirectory(root.resolve("round-" + round));
            Files.write(dir.resolve(WorkspaceYaml.FILE_NAME), text.getBytes(StandardCharsets.UTF_8));
            String context = "round " + round + " (seed " + SEED + "):\n" + (text.length() > 2000 ? text.substring(0, 2000) : text);
            WorkspaceLoad load;
            try {
                load = WorkspaceLoad.read(dir);
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError(context, e);
            }
            if (!load.ok()) {
                assertNotNull(load.error().problem(), context);
                assertTrue(load.error().getMessage().startsWith("runboard.yaml"), context + "\n" + load.error().getMessage());
                continue;
            }
            loaded++;
            Workspace ws = new Workspace(dir, load.content());
            for (String name : ws.commands().keySet()) {
                SessionSpec spec;
                try {
                    spec = ws.spec(name);
                } catch (RuntimeException e) {
                    throw new AssertionError(context + "\ncommand " + name + " loaded but has no spec", e);
                }
                try {
                    spec.validate();
                } catch (InvalidSpecException expected) {
                    // e.g. its cwd does not exist here: said when it starts, with the field
                }
            }
            WorkspaceFile back = WorkspaceYaml.parse(WorkspaceYaml.write(load.content()), Path.of(WorkspaceYaml.FILE_NAME));
            assertEquals(load.content(), back, context + "\nsaved and read again");
        }
        assertTrue(loaded > ROUNDS / 10, "some mutants still load (" + loaded + "), so their commands were checked too");
    }

    private static String mutate(String seed, Random random) {
        List<String> lines = new ArrayList<>(Arrays.asList(seed.split("\n", -1)));
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
            int at = random.nextInt(lines.size());
            switch (random.nextInt(6)) {
                case 0 -> lines.remove(at);
                case 1 -> lines.add(at, lines.get(at));
                case 2 -> lines.add(at, SNIPPETS.get(random.nextInt(SNIPPETS.size())));
                case 3 -> lines.set(at, lines.get(at).replaceFirst(":\\s.*$", ": " + oddValue(random)));
                case 4 -> {
                    int other = random.nextInt(lines.size());
                    String swap = lines.get(at);
                    lines.set(at, lines.get(other));
                    lines.set(other, swap);
                }
                default -> lines.set(at, flip(lines.get(at), random));
            }
            if (lines.isEmpty()) {
                lines.add("");
            }
        }
        return String.join("\n", lines);
    }

    private static String oddValue(Random random) {
        String[] odd = {"", "~", "null", "*c", "&a x", "[1, 2]", "{a: b}", "\"\\0\"", "'", "\"", "-1", "NaN", ".inf",
            "99999999999999999999", "1e400", "0x10", "true", "5 parsecs", "!!str 5", "|\n      multi\n      line", ">-", "@"};
        return odd[random.nextInt(odd.length)];
    }

    private static String flip(String line, Random random) {
        if (line.isEmpty()) {
            return String.valueOf((char) random.nextInt(128));
        }
        char[] chars = line.toCharArray();
        int at = random.nextInt(chars.length);
        chars[at] = (char) (chars[at] ^ (1 << random.nextInt(7)));
        return new String(chars);
    }
}
