package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorFixture;
import dev.runboard.engine.SupervisorFixture.Result;
import dev.runboard.store.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's whole output (its artifact) replaced after it was written, by a link to a file the
 * user can read or by a FIFO: tail, grep and diff read runboard's own output only. The link is not
 * read through (tail printed /etc/shadow's lines, grep matched them), the FIFO blocks nothing, and
 * each says in one line what stands there.
 */
class PlantedOutputCliTest {
    private static final String SECRET = "a line of a file that is not the session's";

    @TempDir
    Path dataDir;
    @TempDir
    Path elsewhere;

    @AfterEach
    void stopTheSupervisor() throws Exception {
        new SupervisorFixture(dataDir).close();
    }

    /** A finished session whose output outgrew its preview: its whole output is an artifact. */
    private String artifactSession() throws Exception {
        Result exec = SupervisorFixture.cli(dataDir, "exec", "--preview-bytes", "4K", "--shell", "/bin/sh", "--",
                "echo first; seq 2 2000");
        assertEquals(0, exec.exit(), exec.err());
        return Json.mapper().readTree(exec.out()).get("session_id").asText();
    }

    @Test
    void anArtifactReplacedByALinkIsNotReadThrough() throws Exception {
        String id = artifactSession();
        String other = artifactSession();
        Path artifact = dataDir.resolve("artifacts").resolve(id + ".log");
        assertTrue(Files.isRegularFile(artifact), "an artifact was written");
        Path secret = Files.writeString(elsewhere.resolve("secret"), SECRET + "\n");
        Files.delete(artifact);
        Files.createSymbolicLink(artifact, secret);

        for (List<String> command : List.of(List.of("tail", id), List.of("grep", "not the session"),
                List.of("diff", id, other))) {
            Result r = SupervisorFixture.cli(dataDir, command.toArray(String[]::new));
            assertFalse(r.out().contains(SECRET), command + " read through the link: " + r.out());
            assertEquals(1, r.err().lines().count(), command + " says it in one line: " + r.err());
            assertTrue(r.err().contains("is a symbolic link, not the output runboard wrote"), command + ": " + r.err());
            assertTrue(r.exit() != 0, command + " fails: " + r);
        }
    }

    @Test
    void anArtifactReplacedByAFifoBlocksNothing() throws Exception {
        String id = artifactSession();
        Path artifact = dataDir.resolve("artifacts").resolve(id + ".log");
        Files.delete(artifact);
        assertEquals(0, new ProcessBuilder("mkfifo", artifact.toString()).start().waitFor());

        for (List<String> command : List.of(List.of("tail", id), List.of("grep", "first"))) {
            CompletableFuture<Result> run = CompletableFuture.supplyAsync(
                    () -> SupervisorFixture.cli(dataDir, command.toArray(String[]::new)));
            Result r = run.get(60, TimeUnit.SECONDS); // it used to block on the FIFO's open for ever
            assertTrue(r.err().contains("is a special file, not the output runboard wrote"), command + ": " + r.err());
            assertTrue(r.exit() != 0, command + " fails: " + r);
        }
    }
}
