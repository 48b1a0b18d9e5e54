package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code up -f FILE} and {@code down -f FILE} with a file not named runboard.yaml and an empty
 * one: every message names the file given.
 */
class WorkspaceFileCliTest {
    @TempDir
    Path dir;
    SupervisorFixture sv;
    Path one;
    Path empty;

    @BeforeEach
    void setUp() throws Exception {
        sv = new SupervisorFixture(dir.resolve("data"));
        one = Files.writeString(dir.resolve("one.yaml"), "commands:\n  web: {command: \"sleep 301\"}\n  db: {command: \"sleep 302\", group: back}\n");
        empty = Files.writeString(dir.resolve("empty.yaml"), "");
    }

    @AfterEach
    void tearDown() throws Exception {
        sv.close();
    }

    private void refused(String expected, String... args) {
        SupervisorFixture.Result r = sv.cli(args);
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals("runboard " + args[0] + ": " + expected + "\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void anUnknownNameIsReportedAgainstTheFileGiven() {
        refused("'zzz' is neither a command nor a group of " + one + " (commands: web, db; groups: back)",
                "up", "-f", one.toString(), "zzz");
        refused("'zzz' is neither a command nor a group of " + one + " (commands: web, db; groups: back)",
                "down", "-f", one.toString(), "zzz");
        refused("'zzz' is not a command of " + empty + ": it defines no commands", "up", "-f", empty.toString(), "zzz");
        refused("'zzz' is not a command of " + empty + ": it defines no commands", "down", "-f", empty.toString(), "zzz");
    }
}
