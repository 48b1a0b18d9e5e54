package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.store.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/runboard's thin client against a real supervisor: the command runs there, for the client (its
 * folder, environment bytes and arguments), its output streams back as it is printed, and a client
 * that leaves takes its command with it. The JVM it would hand a call to is {@code false} here, so
 * every answer below is the supervisor's.
 */
class ThinClientTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path work;

    @Test
    void theCommandRunsInTheSupervisorForTheClientsFolderAndEnvironmentBytes() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            fx.client().statusIfRunning();
            assertTrue(fx.cli("list").exit() == 0 && fx.supervisorPid() > 0, "a supervisor is up");
            Path sub = Files.createDirectory(work.resolve("sub"));
            // An environment value and a folder that are not UTF-8 reach the command as the bytes they are; the
            // supervisor's own folder and environment play no part.
            Path latin = Files.createDirectory(work.resolve("caf\u00e9")); // its name is UTF-8; the value below is not
            Run started = thin(work, "FOO=$(printf 'a\\377b')", "start", "--shell", "/bin/sh", "--cwd", "sub", "--",
                    "pwd; printf '%s' \"$FOO\" | od -An -c | tr -s ' '");
            assertEquals(0, started.exit, started.err);
            String id = started.out.strip();
            assertEquals(0, thin(work, "", "wait", id).exit);
            JsonNode shown = json(thin(work, "", "show", id).out);
            assertEquals(sub + "\n a 377 b\n", shown.path("output").asText());
            assertEquals("/bin/sh", shown.path("shell").asText());

            Run here = thin(latin, "", "start", "--", "pwd");
            assertEquals(0, thin(latin, "", "wait", here.out.strip()).exit, here.err);
            assertEquals(latin + "\n", json(thin(work, "", "show", here.out.strip()).out).path("output").asText(),
                    "no --cwd: the client's folder, not the supervisor's");

            assertEquals(fx.cli("list").out(), thin(work, "", "list").out, "the same lines as the JVM's list");
            Run usage = thin(work, "", "show", "nosuchid");
            assertEquals(2, usage.exit);
            assertEquals(fx.cli("show", "nosuchid").err(), usage.err, "the same one line, the same exit code");
            Run bytes = thin(work, "", "show", "$(printf 'x\\377')");
            assertEquals(2, bytes.exit);
            assertTrue(bytes.err.startsWith("runboard: argument 3 (x\\xff) holds bytes that are not valid UTF-8")
                    && bytes.err.lines().count() == 1, bytes.err);
        }
    }

    @Test
    void tailFollowStreamsAsItPrintsAndEndsWhenTheClientLeaves() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.cli("start", "--shell", "/bin/sh", "--cwd", work.toString(), "--",
                    "echo first; while [ ! -e go ]; do sleep 0.05; done; echo second; sleep 600").out().strip();
            Process follower = ThinClient.of(dataDir).start("tail", "-f", id);
            try {
                InputStream out = follower.getInputStream();
                assertEquals("first\n", new String(out.readNBytes(6), StandardCharsets.UTF_8), "the first line, while it runs");
                Files.createFile(work.resolve("go"));
                assertEquals("second\n", new String(out.readNBytes(7), StandardCharsets.UTF_8), "the next as it comes");
                assertEquals(2, clients(fx), "the supervisor serves the follow (and this status request)");
            } finally {
                follower.destroy(); // Ctrl-C: the client goes
                assertTrue(follower.waitFor(10, TimeUnit.SECONDS));
            }
            // Within a heartbeat or two the supervisor hears it and ends the follow: its connection closes.
            Await.until(Duration.ofSeconds(15), "the follow to end in the supervisor", () -> clients(fx) == 1);
            assertEquals(0, fx.cli("kill", id, "--grace", "0").exit());
        }
    }

    @Test
    void aStoppedSupervisorIsSaidInOneLine() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            fx.cli("list");
            long pid = fx.supervisorPid();
            Process stop = new ProcessBuilder("kill", "-STOP", String.valueOf(pid)).start();
            assertEquals(0, stop.waitFor());
            try {
                ThinClient.Run r = ThinClient.of(dataDir).in(work, Map.of("RUNBOARD_SUPERVISOR_SILENCE", "1s")).run("list");
                assertEquals(1, r.exit());
                assertEquals(1, r.err().lines().count(), r.err());
                assertTrue(r.err().contains("the supervisor (pid " + pid + ") has not answered for 1 s: it is stopped")
                        && r.err().contains("'kill -CONT " + pid + "' resumes it"), r.err());
            } finally {
                assertEquals(0, new ProcessBuilder("kill", "-CONT", String.valueOf(pid)).start().waitFor());
            }
        }
    }

    private record Run(int exit, String out, String err) {
    }

    /**
     * The thin client run by a shell in {@code folder}, with {@code assignments} (shell words, so a value can
     * hold any byte) before it and {@code args} after it, each a shell word too; its fallback JVM is {@code false}.
     */
    private Run thin(Path folder, String assignments, String... args) throws IOException, InterruptedException {
        List<String> words = new ArrayList<>(List.of(args));
        words.add(1, "--data-dir=" + dataDir);
        StringBuilder line = new StringBuilder(assignments).append(" exec perl ").append(quote(ThinClient.client(dataDir).toString()))
                .append(' ').append(quote(Files.readAllLines(dataDir.resolve("supervisor.address")).get(0))).append(' ')
                .append(quote(dataDir.toString())).append(' ').append(words.size());
        for (String w : words) {
            line.append(' ').append(w.startsWith("$(") ? "\"" + w + "\"" : quote(w));
        }
        line.append(" false");
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", line.toString()).directory(folder.toFile());
        Map<String, String> env = new HashMap<>(pb.environment());
        env.remove("JAVA_TOOL_OPTIONS");
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        return new Run(p.exitValue(), out, err.join());
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static JsonNode json(String text) throws IOException {
        return Json.mapper().readTree(text);
    }

    /** The connections the supervisor serves, as {@code supervisor status} says (this request's among them). */
    private static int clients(SupervisorFixture fx) {
        try {
            return fx.client().statusIfRunning().clients();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
