package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data dir that cannot be used stops every command before it starts anything: one line on
 * stderr naming the problem and what to do, exit 2, no stack trace, no command run, no supervisor.
 */
class DataDirProblemsTest {
    private static final String ID = "20260101-000000-abcdef";

    @TempDir
    Path tmp;

    private final RootTools root = new RootTools();

    @AfterEach
    void undo() throws Exception {
        root.close();
    }

    @Test
    void aRegularFile() throws Exception {
        Path file = tmp.resolve("data");
        Files.writeString(file, "not a folder");
        assertEveryCommandRefuses(file, "the data dir " + file + " is a file: move it away");
    }

    @Test
    void aDanglingSymlink() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("data"), tmp.resolve("gone"));
        assertEveryCommandRefuses(link, "the data dir " + link + " is a symbolic link to " + tmp.resolve("gone")
                + ", which does not exist");
        assertFalse(Files.exists(tmp.resolve("gone")), "the link's target is not created");
    }

    @Test
    void aFolderOfAnotherUser() throws Exception {
        Path dir;
        if (RootTools.isRoot()) {
            dir = Files.createDirectory(tmp.resolve("data"));
            root.chown(dir, "nobody");
        } else {
            dir = Path.of("/"); // root's, and not this user's
        }
        assertEveryCommandRefuses(dir, "the data dir " + dir + " belongs to user ");
    }

    @Test
    void aReadOnlyFileSystem() throws Exception {
        Path dir = tmp.resolve("data");
        root.mountTmpfs(dir, "1m");
        Files.createDirectory(dir.resolve("sessions"));
        root.remountReadOnly(dir);
        assertEveryCommandRefuses(dir, "the data dir " + dir + " is on a read-only file system: remount it read-write");
    }

    @Test
    void aFolderWithoutWritePermission() throws Exception {
        // Root writes whatever the mode says: this case is for other users (root's is the read-only mount above).
        org.junit.jupiter.api.Assumptions.assumeFalse(RootTools.isRoot(), "skipped: root may write a folder of mode r-x------");
        Path dir = Files.createDirectory(tmp.resolve("data"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-x------"));
        try {
            assertEveryCommandRefuses(dir, "the data dir " + dir + " is not writable (mode r-x------): chmod u+w " + dir);
        } finally {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void aSupervisorLogThatCannotBeAppendedTo() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("data"));
        Path log = Files.writeString(dir.resolve("supervisor.log"), "an older supervisor's lines\n");
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-------"));
        if (RootTools.isRoot()) {
            root.makeImmutable(log); // root appends to anything else
            assertEveryCommandRefuses(dir, "the supervisor's log " + log + " cannot be written though its mode allows it"
                    + " (mode rw-------): it is probably immutable (see lsattr; chattr -i undoes it)");
        } else {
            Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("r--------"));
            assertEveryCommandRefuses(dir, "the supervisor's log " + log + " is not writable (mode r--------)");
        }
        assertEquals("an older supervisor's lines\n", Files.readString(log));
    }

    @Test
    void anEmptyDataDirFlagIsNotTheCurrentFolder() throws Exception {
        Path here = Path.of("").toAbsolutePath();
        String modeBefore = PosixFilePermissions.toString(Files.getPosixFilePermissions(here));
        boolean markedBefore = Files.exists(here.resolve(".private"));
        assertEveryCommandRefuses(Path.of(""), "--data-dir is empty (an unset variable?): leave it out for the default");
        assertEquals(modeBefore, PosixFilePermissions.toString(Files.getPosixFilePermissions(here)), "the current folder's mode is kept");
        assertEquals(markedBefore, Files.exists(here.resolve(".private")), "nothing of runboard's written into it");
    }

    @Test
    void aFolderOfSomethingElse() throws Exception {
        Path project = Files.createDirectory(tmp.resolve("project"));
        Files.setPosixFilePermissions(project, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(project.resolve("main.c"), "int main(void) { return 0; }\n");
        assertEveryCommandRefuses(project, "the data dir " + project + " already holds files that are not runboard's (such as"
                + " main.c): give runboard a folder of its own, e.g. " + project.resolve(".runboard"));
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(project)), "its mode is kept");
        try (var entries = Files.list(project)) {
            assertEquals(List.of(project.resolve("main.c")), entries.toList(), "nothing written into it");
        }
    }

    @Test
    void aSessionsFolderThatIsAFile() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("data"));
        Path sessions = Files.writeString(dir.resolve("sessions"), "not a folder");
        assertEveryCommandRefuses(dir, sessions + " is a file where runboard keeps a folder: move it away");
    }

    @Test
    void aSupervisorLogThatIsAFolder() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("data"));
        Path log = Files.createDirectory(dir.resolve("supervisor.log"));
        assertEveryCommandRefuses(dir, log + " is a folder where runboard keeps a file: move it away");
    }

    /** Every subcommand that uses the data dir refuses it the same way. */
    private void assertEveryCommandRefuses(Path dataDir, String problem) throws Exception {
        Path marker = tmp.resolve("the-command-ran");
        List<List<String>> commands = List.of(
                List.of("exec", "--shell", "/bin/sh", "--", "touch '" + marker + "'"),
                List.of("start", "--shell", "/bin/sh", "--", "touch '" + marker + "'"),
                List.of("list"), List.of("show", ID), List.of("kill", ID), List.of("wait", ID), List.of("tail", ID),
                List.of("signal", ID, "STOP"), List.of("supervisor", "status"));
        for (List<String> command : commands) {
            List<String> args = new ArrayList<>(command);
            int at = command.get(0).equals("supervisor") ? 2 : 1;
            args.add(at, "--data-dir");
            args.add(at + 1, dataDir.toString());
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = RunboardCli.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
            String name = "runboard " + String.join(" ", command.subList(0, at));
            assertOneLine(name, exit, out.toString(), err.toString(), problem);
        }

        assertFalse(Files.exists(marker), "no command ran");
        OsProcesses os = OsProcesses.forThisMachine();
        for (ProcInfo p : os.snapshot().all()) {
            // A supervisor's command line ends with its data dir (SupervisorLauncher).
            if (p.alive() && p.pid() != ProcessHandle.current().pid()) {
                assertFalse(os.commandLine(p.pid()).endsWith("--data-dir " + dataDir), "no supervisor was started for the data dir: "
                        + os.commandLine(p.pid()));
            }
        }
    }

    private static void assertOneLine(String name, int exit, String out, String err, String problem) {
        String where = name + " said: " + err;
        assertEquals(2, exit, where);
        assertEquals("", out, where);
        assertEquals(1, err.lines().count(), "one line: " + where);
        assertTrue(err.startsWith(name + ": " + problem), where);
        assertTrue(err.strip().endsWith(", or choose another data dir with --data-dir or RUNBOARD_HOME"), "what to do: " + where);
        assertFalse(err.contains("Exception") || err.contains("\tat "), "no stack trace: " + where);
    }
}
