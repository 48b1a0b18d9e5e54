package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorFixture;
import dev.runboard.store.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tail} and {@code grep} into a pipe or file (a script's view) hand over the escape
 * sequences a command wrote byte for byte; only a terminal gets them shown (VisibleControlsTest).
 * Run as a user runs them, in a JVM of their own with stdout to a file.
 */
class ControlCharactersCliTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path outputs;

    private record Child(int exit, byte[] out, String err) {
    }

    @Test
    void tailAndGrepIntoAFileKeepEscapeSequencesExact() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            SupervisorFixture.Result exec = fx.cli("exec", "--shell", "/bin/sh", "--",
                    "printf '\\033]0;retitled\\007\\033[31mred alert\\033[0m\\r\\n\\302\\233plain\\n'");
            assertEquals(0, exec.exit(), exec.err());
            String id = Json.mapper().readTree(exec.out()).get("session_id").asText();
            byte[] written = "\u001B]0;retitled\u0007\u001B[31mred alert\u001B[0m\r\n\u009Bplain\n".getBytes(StandardCharsets.UTF_8);

            Child tail = runboard("tail", id);
            assertEquals(0, tail.exit(), tail.err());
            assertArrayEquals(written, tail.out(), "tail into a file: the bytes as written");

            Child grep = runboard("grep", "alert");
            assertEquals(0, grep.exit(), grep.err());
            String found = new String(grep.out(), StandardCharsets.UTF_8);
            assertTrue(found.contains("\n1:\u001B]0;retitled\u0007\u001B[31mred alert\u001B[0m\n"), found); // (a CRLF's CR ends the line)

            SupervisorFixture.Result other = fx.cli("exec", "--shell", "/bin/sh", "--", "printf '\\033[32mgreen\\033[0m\\n'");
            String otherId = Json.mapper().readTree(other.out()).get("session_id").asText();
            Child diff = runboard("diff", id, otherId);
            assertEquals(1, diff.exit(), diff.err());
            String lines = new String(diff.out(), StandardCharsets.UTF_8);
            assertTrue(lines.contains("\n+\u001B[32mgreen\u001B[0m\n"), "diff into a file: the bytes as written: " + lines);
        }
    }

    private Child runboard(String command, String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> argv = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "dev.runboard.Launcher", command, "--data-dir", dataDir.toString()));
        argv.addAll(List.of(args));
        Path out = Files.createTempFile(outputs, command, ".out");
        Path err = Files.createTempFile(outputs, command, ".err");
        Process p = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "runboard " + command + " did not end");
        return new Child(p.exitValue(), Files.readAllBytes(out), Files.readString(err));
    }
}
