package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorFixture;
import dev.runboard.store.Settings;
import dev.runboard.store.SettingsStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What runboard creates in its data dir is its user's alone: folders 0700, files 0600, whatever the umask. */
class PrivateFilesTest {
    @TempDir
    Path tmp;

    private Path dataDir;

    @AfterEach
    void stopTheSupervisor() throws Exception {
        if (dataDir != null && Files.isDirectory(dataDir)) {
            new SupervisorFixture(dataDir).close();
        }
    }

    /**
     * Runs in a child JVM under umask 000: sessions through the CLI (one whose output outgrows its
     * preview, one that fits), a list that brings the supervisor up (it inherits the umask) and makes
     * it move a bad record aside, the settings saved, the supervisor stopped.
     */
    public static void main(String[] args) throws Exception {
        String dir = args[0];
        PrintWriter out = new PrintWriter(new StringWriter(), true);
        PrintWriter err = new PrintWriter(System.err, true);
        int big = RunboardCli.run(new String[] {"exec", "--data-dir", dir, "--shell", "/bin/sh", "--", "seq 1 100000"}, out, err);
        int small = RunboardCli.run(new String[] {"exec", "--data-dir", dir, "--shell", "/bin/sh", "--", "echo small; exit 3"}, out, err);
        Path bad = Files.createDirectories(Path.of(dir, "sessions", "20260101-000000-abcdef"));
        Files.writeString(bad.resolve("session.json"), "{ not json");
        Files.setPosixFilePermissions(bad, PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(bad.resolve("session.json"), PosixFilePermissions.fromString("rw-------"));
        int list = RunboardCli.run(new String[] {"list", "--data-dir", dir}, out, err);
        new SettingsStore(Path.of(dir)).save(Settings.DEFAULTS.withTheme("dark"));
        int stop = RunboardCli.run(new String[] {"supervisor", "stop", "--data-dir", dir}, out, err);
        System.out.println("exits " + big + " " + small + " " + list + " " + stop);
        System.exit(0);
    }

    @Test
    void everyFolderIs0700AndEveryFile0600UnderAPermissiveUmask() throws Exception {
        dataDir = tmp.resolve("data");
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "umask 000; exec \"$0\" -cp \"$1\" " + PrivateFilesTest.class.getName()
                + " \"$2\"", java, System.getProperty("java.class.path"), dataDir.toString())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().remove("XDG_RUNTIME_DIR"); // the supervisor's socket in the data dir, to be walked too
        Process child = pb.start();
        String said = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, child.waitFor(), said);
        assertTrue(said.contains("exits 0 3 0 0"), said);
        assertFalse(said.contains("warning"), "nothing had to be made private afterwards: " + said);

        // The wrapper records exit statuses after the command: it must not hand its umask to the command.
        Path status = tmp.resolve("exit-status");
        Path made = tmp.resolve("made-by-the-command");
        RootTools.Result wrapped = RootTools.run("sh", "-c", "umask 000; exec perl \"$0\" \"$1\" 0 0 touch \"$2\"",
                dataDir.resolve("bin/runboard-wrap.pl").toString(), status.toString(), made.toString());
        assertEquals(0, wrapped.exit(), wrapped.output());
        assertEquals("rw-------", mode(status), "the exit status");
        assertEquals("rw-rw-rw-", mode(made), "the command kept the umask it was started with");

        Map<String, String> modes = modes(dataDir);
        List<String> wrong = new ArrayList<>();
        modes.forEach((path, mode) -> {
            boolean folder = Files.isDirectory(dataDir.resolve(path), LinkOption.NOFOLLOW_LINKS);
            if (!mode.equals(folder ? "rwx------" : "rw-------")) {
                wrong.add(path + " " + mode);
            }
        });
        assertEquals(List.of(), wrong, "everything in " + modes);
        for (String expected : List.of("", "sessions", "bin/runboard-wrap.pl", "artifacts", "corrupt", "settings.json",
                "supervisor.lock", "supervisor.log")) {
            assertTrue(modes.containsKey(expected), expected + " is among " + modes.keySet());
        }
        for (String suffix : List.of("/session.json", "/capture.log", "/lock")) {
            assertTrue(modes.keySet().stream().anyMatch(p -> p.startsWith("sessions/") && p.endsWith(suffix)), suffix + " in " + modes);
        }
        assertTrue(modes.keySet().stream().anyMatch(p -> p.startsWith("artifacts/") && p.endsWith(".log")), "an artifact in " + modes);
        assertTrue(modes.keySet().stream().anyMatch(p -> p.startsWith("corrupt/")), "the bad record moved aside in " + modes);
    }

    @Test
    void anOlderDataDirIsMadePrivateOnceWithOneWarning() throws Exception {
        dataDir = tmp.resolve("data");
        assertEquals(0, exec("--", "seq 1 100000").exit());
        // As an older runboard left it: files as the umask made them, no mark that it was gone through.
        Files.delete(dataDir.resolve(".private"));
        loosen(dataDir);
        assertTrue(modes(dataDir).containsValue("rw-r--r--"));

        Exec first = exec("--", "true");
        assertEquals(0, first.exit(), first.err());
        assertEquals(1, first.err().lines().count(), first.err());
        assertTrue(first.err().startsWith("runboard exec: warning: made "), first.err());
        assertTrue(first.err().contains(" in " + dataDir + " private: other users could read them ("), first.err());
        modes(dataDir).forEach((path, mode) -> assertTrue(mode.equals("rwx------") || mode.equals("rw-------"), path + " " + mode));

        Exec second = exec("--", "true");
        assertEquals("", second.err(), "said once");

        // Loose again at the top (a chmod -R by hand): gone through again, mark or not.
        loosen(dataDir);
        assertTrue(exec("--", "true").err().contains("warning: made "));
    }

    @Test
    void aFileThatCannotBeMadePrivateIsRefused() throws Exception {
        dataDir = tmp.resolve("data");
        assertEquals(0, exec("--", "echo hi").exit());
        Files.delete(dataDir.resolve(".private"));
        Path record;
        try (Stream<Path> all = Files.walk(dataDir.resolve("sessions"))) {
            record = all.filter(p -> p.endsWith("session.json")).findFirst().orElseThrow();
        }
        Files.setPosixFilePermissions(record, PosixFilePermissions.fromString("rw-r--r--"));
        try (RootTools root = new RootTools()) {
            root.makeImmutable(record);
            Exec refused = exec("--", "touch '" + tmp.resolve("ran") + "'");
            assertEquals(2, refused.exit(), refused.err());
            assertEquals("runboard exec: " + record + " can be read by other users (mode rw-r--r--) and cannot be made private:"
                    + " Operation not permitted (" + record + "); fix it with chmod go-rwx, or choose another data dir with"
                    + " --data-dir or RUNBOARD_HOME", refused.err().strip());
            assertFalse(Files.exists(tmp.resolve("ran")));
        }
    }

    private record Exec(int exit, String out, String err) {
    }

    private Exec exec(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of("exec", "--data-dir", dataDir.toString(), "--shell", "/bin/sh"));
        all.addAll(List.of(args));
        int code = RunboardCli.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Exec(code, out.toString(), err.toString());
    }

    private static void loosen(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
    }

    /** Every path under {@code dir} (relative; "" for itself) and its mode, links not followed. */
    private static Map<String, String> modes(Path dir) throws IOException {
        Map<String, String> modes = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.toList()) {
                modes.put(dir.relativize(p).toString(), mode(p));
            }
        }
        return modes;
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }
}
