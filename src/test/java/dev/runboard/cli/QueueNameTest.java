package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A queue without a name (an unset variable in a script) is refused before anything starts: no supervisor, no session. */
class QueueNameTest {
    @TempDir
    Path dataDir;

    @Test
    void startIntoAnEmptyQueueNameIsRefused() {
        String err = refused("start", "--data-dir", dataDir.toString(), "--queue", "", "--", "sleep", "30");
        assertTrue(err.contains("--queue needs a name, e.g. --queue builds"), err);
    }

    @Test
    void aLimitForAnEmptyQueueNameIsRefused() {
        String err = refused("queue", "--data-dir", dataDir.toString(), " ", "--parallel", "2");
        assertTrue(err.contains("a queue needs a name, e.g. runboard queue builds --parallel 2"), err);
    }

    private String refused(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, RunboardCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true)), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertEquals("", out.toString());
        assertTrue(!Files.exists(dataDir.resolve("supervisor.lock")) && !Files.exists(dataDir.resolve("sessions")),
                "nothing was started in " + dataDir);
        return err.toString();
    }
}
