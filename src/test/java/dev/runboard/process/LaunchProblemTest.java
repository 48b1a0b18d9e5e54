package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program that is there but cannot run is named for what is wrong with it, by a shell and without
 * one: not "command not found", which sends a person looking for the program itself.
 */
class LaunchProblemTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path scripts;
    EngineFixture fx;

    @BeforeEach
    void setUp() {
        fx = new EngineFixture(dataDir);
    }

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private Path file(String name, String text, String mode) throws Exception {
        Path f = Files.writeString(scripts.resolve(name), text, java.nio.charset.StandardCharsets.ISO_8859_1);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    private SessionSnapshot withShell(Path program) throws Exception {
        return fx.run(fx.sh(program.toString()).build());
    }

    private SessionSnapshot withoutShell(Path program) throws Exception {
        return fx.run(SessionSpec.argv(program.toString()).cwd(dataDir).build());
    }

    @Test
    void aScriptWhoseInterpreterIsMissingSaysSoAndNamesIt() throws Exception {
        Path script = file("bad.py", "#!/usr/bin/nonexistent-python\nprint(1)\n", "rwxr-xr-x");
        String reason = "the interpreter of " + script + ", /usr/bin/nonexistent-python (its #! line), was not found (exit 127)";
        SessionSnapshot shell = withShell(script);
        assertEquals(SessionStatus.FAILED, shell.status());
        assertEquals(reason, shell.reason());
        SessionSnapshot direct = withoutShell(script);
        assertEquals(reason, direct.reason());
        assertEquals("runboard: cannot run " + script + ": its interpreter /usr/bin/nonexistent-python (named on its #! line)"
                + " was not found", direct.lastLine());

        Path viaEnv = file("env.py", "#!/usr/bin/env nonexistent-python-runboard\n", "rwxr-xr-x");
        assertEquals("the interpreter of " + viaEnv + ", nonexistent-python-runboard (its #! line), was not found (exit 127)",
                withoutShell(viaEnv).reason());
    }

    @Test
    void aScriptWithoutExecutePermissionSaysSo() throws Exception {
        Path script = file("noexec.sh", "#!/bin/sh\necho hi\n", "rw-r--r--");
        String reason = script + " is not executable: chmod +x it, or run it with its interpreter (exit 126)";
        assertEquals(reason, withShell(script).reason());
        SessionSnapshot direct = withoutShell(script);
        assertEquals(reason, direct.reason());
        assertEquals("runboard: cannot run " + script + ": it is not executable (chmod +x it, or run it with its interpreter)",
                direct.lastLine());
    }

    @Test
    void aFileThatIsNoProgramForThisMachineSaysSo() throws Exception {
        Path elf = file("broken", "\u007FELFgarbage\n", "rwxr-xr-x");
        SessionSnapshot shell = withShell(elf);
        assertEquals(elf + " is not a program this machine can run (exec format error) (exit 126)", shell.reason());
        SessionSnapshot direct = withoutShell(elf);
        assertEquals(elf + " is not a program this machine can run (exec format error) (exit " + direct.exitCode() + ")",
                direct.reason());
    }

    @Test
    void aFolderGivenAsTheCommandIsAFolderNotAProgram() throws Exception {
        Path folder = Files.createDirectory(scripts.resolve("somedir"));
        String reason = folder + " is a folder, not a program (exit 126)";
        assertEquals(reason, withShell(folder).reason());
        SessionSnapshot direct = withoutShell(folder);
        assertEquals(reason, direct.reason());
        assertEquals("runboard: cannot run " + folder + ": it is a folder, not a program", direct.lastLine());
        SessionSnapshot relative = fx.run(SessionSpec.argv("./somedir").cwd(scripts).build());
        assertEquals("./somedir is a folder, not a program (exit 126)", relative.reason(), "as the person wrote it");
        assertEquals("runboard: cannot run ./somedir: it is a folder, not a program", relative.lastLine());
    }

    @Test
    void aMissingCommandAndAScriptThatExits127ItselfStayCommandNotFound() throws Exception {
        assertEquals("command not found (exit 127)", fx.run(fx.sh("no-such-command-runboard").build()).reason());
        Path script = file("fine.sh", "#!/bin/sh\nexit 127\n", "rwxr-xr-x");
        assertEquals("command not found (exit 127)", withShell(script).reason(), "its interpreter is there: nothing is claimed");
        assertTrue(withoutShell(scripts.resolve("missing")).output().contains("No such file or directory"));
    }
}
