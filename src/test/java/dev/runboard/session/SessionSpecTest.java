package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionSpecTest {
    @TempDir
    Path dir;

    private void rejects(SessionSpec spec, String field, String message) {
        InvalidSpecException e = assertThrows(InvalidSpecException.class, spec::validate);
        assertEquals(field, e.field());
        assertEquals(message, e.getMessage());
    }

    @Test
    void eachInvalidFieldIsNamed() throws Exception {
        SessionSpec.Builder ok = SessionSpec.shell("echo hi").shell(Path.of("/bin/sh")).cwd(dir);
        rejects(SessionSpec.shell("  ").cwd(dir).shell(Path.of("/bin/sh")).build(), "command", "command is empty: type the command to run");
        rejects(SessionSpec.argv(List.of()).cwd(dir).build(), "command", "command is empty: give the program to run");
        rejects(ok.cwd(dir.resolve("nope")).build(), "cwd", "cwd " + dir.resolve("nope") + " does not exist");
        Path file = Files.writeString(dir.resolve("file"), "x");
        rejects(ok.cwd(file).build(), "cwd", "cwd " + file + " is not a directory");
        ok.cwd(dir);
        rejects(ok.shell(Path.of("/no/such/shell")).build(), "shell", "shell /no/such/shell not found");
        rejects(ok.shell(file).build(), "shell", "shell " + file + " is not executable");
        ok.shell(Path.of("/bin/sh"));
        rejects(ok.timeout(Duration.ZERO).build(), "timeout", "timeout must be at least 1 second (leave it empty for none)");
        ok.timeout(null);
        rejects(ok.env("A=B", "x").build(), "env", "environment name 'A=B' is invalid (empty, or contains '=' or NUL)");
        ok.env(java.util.Map.of());
        String niceMessage = "priority (nice) must be 0 (normal) to 19 (lowest); a command cannot be run above normal"
                + " priority without privileges";
        rejects(ok.nice(-1).build(), "nice", niceMessage);
        rejects(ok.nice(20).build(), "nice", niceMessage);
        ok.nice(19).build().validate();
    }

    @Test
    void argvIsDisplayedAsAShellWouldReadIt() {
        SessionSpec s = SessionSpec.argv("grep", "-r", "it's here", "src").build();
        assertEquals("grep -r 'it'\\''s here' src", s.displayCommand());
        assertEquals(List.of("grep", "-r", "it's here", "src"), s.launchArgv());
    }

    @Test
    void shellStringRunsWithDashC() {
        SessionSpec s = SessionSpec.shell("make test").shell(Path.of("/bin/bash")).build();
        assertEquals(List.of("/bin/bash", "-c", "make test"), s.launchArgv());
    }
}
