package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code up -f FILE} and {@code down -f FILE} with a file not named runboard.yaml, a mistyped one
 * and an empty one: every message names the file given, and nothing done is said, never silent.
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

    @Test
    void aFileThatDoesNotParseIsNamedByItsWholePathWithTheProblemAndItsPlace() throws Exception {
        Path tabs = Files.writeString(dir.resolve("tabs.yaml"), "commands:\n\tweb: {command: \"sleep 1\"}\n");
        refused(tabs + ":2:1: a tab where YAML allows only spaces: indent with spaces (fix the file and try again)",
                "up", "-f", tabs.toString(), "web");
    }

    /** A command that cannot start names itself and the line of its key; its dependency, fine on its own, is not started either. */
    @Test
    void aCommandThatCannotStartIsNamedWithTheLineOfItsBadValueAndNothingStarts() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "commands:\n  web:\n    command: sleep 303\n  api:\n"
                + "    command: sleep 304\n    depends_on: {web: started}\n    cwd: ./nope\n");
        refused(bad + ":7:5: in commands.api: cwd " + dir.resolve("nope") + " does not exist (fix the file and try again)",
                "up", "-f", bad.toString(), "api");
        Files.writeString(bad, "commands:\n  api:\n    command: sleep 304\n    shell: /nonexistent/sh\n");
        refused(bad + ":4:5: in commands.api: shell /nonexistent/sh not found (fix the file and try again)",
                "up", "-f", bad.toString(), "api");
        SupervisorFixture.Result list = sv.cli("list");
        assertEquals(0, list.exit(), list.err());
        assertEquals(false, list.out().contains("sleep 30"), "nothing started: " + list.out());
    }

    @Test
    void upThatWouldStartNothingSaysWhy() {
        refused(empty + " defines no commands: nothing to start", "up", "-f", empty.toString());
        refused("nothing to start: no command of " + one + " has autostart: true (name the ones to start: web, db)",
                "up", "-f", one.toString());
    }

    @Test
    void downOfAMissingFileIsRefusedAsUpRefusesItAndDownOfNothingSaysSo() throws Exception {
        Path typo = dir.resolve("typo.yaml");
        refused("no workspace file " + typo + " (write one, or give -f FILE)", "up", "-f", typo.toString());
        refused("no workspace file " + typo + " (write one, or give -f FILE)", "down", "-f", typo.toString());

        SupervisorFixture.Result down = sv.cli("down", "-f", empty.toString());
        assertEquals(0, down.exit(), down.err());
        assertEquals("nothing runs from " + empty + "\n", down.out());

        assertEquals(0, sv.cli("up", "-f", one.toString(), "web").exit());
        down = sv.cli("down", "-f", one.toString(), "back");
        assertEquals(0, down.exit(), down.err());
        assertEquals("nothing of back runs from " + one + "\n", down.out());
        // A file removed since up still names what runs from it: down stops it rather than strand it.
        Files.delete(one);
        down = sv.cli("down", "-f", one.toString());
        assertEquals(0, down.exit(), down.err());
        assertEquals("stopped web\n", down.out());
        refused("no workspace file " + one + " (write one, or give -f FILE)", "down", "-f", one.toString());
    }
}
