package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.store.Json;
import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code exec} is used in scripts and CI: its command reads exec's own stdin, as {@code timeout(1)}
 * and {@code env(1)} do, and sees end-of-file when it ends. Run as a user runs it: its own JVM.
 */
class ExecStdinTest {
    @TempDir
    Path dataDir;

    private Process exec(String... command) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> argv = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"), "dev.runboard.Launcher",
                "exec", "--data-dir", dataDir.toString(), "--shell", "/bin/sh", "--"));
        argv.addAll(List.of(command));
        return new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static JsonNode finish(Process p) throws Exception {
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "exec ended");
        JsonNode snapshot = Json.mapper().readTree(p.getInputStream().readAllBytes());
        assertEquals(snapshot.path("exit_code").asInt(), p.exitValue(), "exec exits with the command's code");
        return snapshot;
    }

    @Test
    void pipedInputReachesTheCommandAndItsEndIsEndOfFile() throws Exception {
        Process p = exec("cat; echo \"cat saw the end\"");
        try (OutputStream in = p.getOutputStream()) {
            in.write("hello\nworld\n".getBytes(StandardCharsets.UTF_8));
        }
        JsonNode snapshot = finish(p);
        assertEquals("completed", snapshot.path("status").asText());
        assertEquals("hello\nworld\ncat saw the end\n", snapshot.path("output").asText());
    }

    @Test
    void anEmptyInputIsEndOfFileAtOnce() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.runboard.Launcher",
                "exec", "--data-dir", dataDir.toString(), "--shell", "/bin/sh", "--", "wc -c; exit 3")
                .redirectInput(new File("/dev/null")).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        JsonNode snapshot = finish(p);
        assertEquals(3, p.exitValue());
        assertEquals("0", snapshot.path("output").asText().strip());
    }
}
