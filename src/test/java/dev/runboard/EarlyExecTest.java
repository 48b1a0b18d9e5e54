package dev.runboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.store.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/runboard's early launch (docs/BENCHMARKS.md §10, round 11), through the real script, a real
 * jar of this build and real processes: the command starts before the JVM, which adopts it and
 * records it as exec always has; and when the JVM dies before adopting it, nothing of the command
 * is left running.
 */
class EarlyExecTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path shared;

    private static Path jar;
    private static Path dataDir;

    @TempDir
    Path tmp;

    /** A jar of target/classes that names its libraries where Maven keeps them, and one exec to make the archive and the data dir. */
    @BeforeAll
    static void buildAJarAndTrain() throws Exception {
        jar = shared.resolve("runboard.jar");
        writeJar(jar, Path.of("target/classes"), libraries());
        dataDir = shared.resolve("data");
        Run first = runboard(Map.of(), "", "exec", "--data-dir", dataDir.toString(), "--", "true");
        assertEquals(0, first.exit, first.err);
        assertTrue(Files.isDirectory(shared.resolve("cache/runboard")), "the slow path made the launch file: " + first.err);
    }

    /** The supervisors the tests brought up (with a long idle limit) go with them, and anything a failure left running. */
    @org.junit.jupiter.api.AfterEach
    void stopSupervisors() throws Exception {
        for (Path data : List.of(tmp.resolve("supervised"), dataDir)) {
            if (Files.isDirectory(data.resolve("sessions"))) {
                new dev.runboard.engine.SupervisorFixture(data).close();
            }
        }
    }

    @Test
    void theCommandStartsBeforeTheJvmAndIsRecordedAsExecRecordsIt() throws Exception {
        // Its parent is the wrapper: the wrapper was told who adopts it; the command itself is not.
        String command = "echo \"adopter=$(tr '\\0' '\\n' </proc/$PPID/environ | grep -c RUNBOARD_ADOPTER=)\";"
                + " echo \"mine=$(env | grep -c RUNBOARD_ADOPTER=)\"; echo \"tag=$RUNBOARD_SESSION\"; exit 3";
        Run early = runboard(Map.of(), "", "exec", "--data-dir", dataDir.toString(), "--shell", "/bin/sh", "--", command);
        assertEquals(3, early.exit, early.err);
        JsonNode shown = Json.mapper().readTree(early.out);
        String id = shown.get("session_id").asText();
        assertEquals("failed", shown.get("status").asText());
        assertEquals(3, shown.get("exit_code").asInt());
        assertEquals("adopter=1\nmine=0\ntag=" + id + "\n", shown.get("output").asText(), "launched early, tagged");
        JsonNode record = Json.mapper().readTree(dataDir.resolve("sessions").resolve(id).resolve("session.json").toFile());
        assertEquals("failed", record.get("status").asText());
        assertEquals("/bin/sh", record.get("spec").get("shell").asText());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                dataDir.resolve("sessions").resolve(id).resolve("capture.log"))), "the capture is private, as create makes it");

        Run ordinary = runboard(Map.of("RUNBOARD_EARLY_LAUNCH", "off"), "", "exec", "--data-dir", dataDir.toString(),
                "--shell", "/bin/sh", "--", command);
        assertEquals(3, ordinary.exit, ordinary.err);
        assertTrue(Json.mapper().readTree(ordinary.out).get("output").asText().startsWith("adopter=0\nmine=0\n"),
                "off: the JVM launches it: " + ordinary.out);
    }

    @Test
    void theEarlyCommandReadsExecsStdin() throws Exception {
        Run run = runboard(Map.of(), "piped in\n", "exec", "--data-dir", dataDir.toString(), "--", "cat; echo done");
        assertEquals(0, run.exit, run.err);
        assertEquals("piped in\ndone\n", Json.mapper().readTree(run.out).get("output").asText());
    }

    @Test
    void aJvmThatDiesBeforeAdoptingTheCommandLeavesNothingRunningAndTheSessionRecorded() throws Exception {
        Path pids = tmp.resolve("pids");
        List<String> before = sessionFolders();
        // A JVM that cannot start: the command is already running, and nobody will ever write its record.
        Run run = runboard(Map.of("JAVA_TOOL_OPTIONS", "-Xmx1k"), "", "exec", "--data-dir", dataDir.toString(), "--",
                "echo $$ >'" + pids + "'; sleep 600 & echo $! >>'" + pids + "'; echo started; wait");
        assertTrue(run.exit != 0, "the JVM failed: " + run.err);
        List<String> made = sessionFolders();
        made.removeAll(before);
        if (made.isEmpty()) {
            // On a loaded machine the JVM can be gone before the wrapper's first look: it then starts nothing and
            // removes the folder it was given, all before this look (a loaded run saw it). Nothing ran: the command's
            // first act would have been to write its pid.
            assertFalse(Files.exists(pids), "no folder is left, so nothing may have run");
            return;
        }
        assertEquals(1, made.size(), "one folder was made for it: " + made);
        Path folder = dataDir.resolve("sessions").resolve(made.get(0));
        String tag = "RUNBOARD_SESSION=" + made.get(0);

        // The wrapper ends the tree, then writes how it ended (killed by TERM): only after its last KILL pass. Or,
        // when the JVM was gone before the wrapper had started the command, it removes the folder it was given.
        Await.until(WAIT, "the wrapper to record the end", () -> Files.exists(folder.resolve("exit-status"))
                || !Files.exists(folder.resolve("lock")));
        OsProcesses os = OsProcesses.forThisMachine();
        Await.until(WAIT, "no process of the session left", () -> os.snapshot().all().stream()
                .filter(ProcInfo::alive).noneMatch(p -> environ(p.pid()).contains(tag)));
        if (!Files.exists(folder.resolve("lock"))) {
            // The JVM was gone before the wrapper started the command: nothing ran, and the folder went with its lock.
            assertFalse(Files.exists(folder.resolve("early.spec")), "nothing to record");
            return;
        }
        if (Files.exists(pids)) {
            List<Long> mine = Files.readAllLines(pids).stream().map(Long::parseLong).toList();
            // From /proc, as a user's ps: a killed process its dead parent left unreaped (a zombie) has ended.
            Await.until(WAIT, "the command's processes " + mine + " gone", () -> os.snapshot().all().stream()
                    .filter(ProcInfo::alive).noneMatch(p -> mine.contains(p.pid())));
        } // (else it was killed before it wrote them: no process carries its tag, above)
        for (String file : List.of("capture.log", "early.spec", "session.json.reserved")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.resolve(file))),
                    file + ": private from the start, though the script made it under the user's umask");
        }

        String captured = Files.readString(folder.resolve("capture.log")); // all it wrote: the wrapper is done
        // It ran, so it is recorded: the next supervisor (list brings one) records it from what the folder holds.
        try (dev.runboard.engine.SupervisorFixture supervisor = new dev.runboard.engine.SupervisorFixture(dataDir)) {
            assertEquals(0, runboard(Map.of(), "", "list", "--data-dir", dataDir.toString()).exit);
            Await.until(WAIT, "the session recorded", () -> Files.exists(folder.resolve("session.json")));
            JsonNode shown = supervisor.client().await(made.get(0)).json();
            assertEquals("killed", shown.get("status").asText(), shown.toString());
            if (!captured.isEmpty()) {
                assertEquals(captured, shown.get("output").asText(), "its output is kept");
            }
            assertTrue(shown.get("events").toString().contains("ended before it recorded the session"), shown.toString());
            assertTrue(shown.get("command").asText().startsWith("echo $$ >"), shown.toString());
        }
    }

    /**
     * A data dir with room for a folder and the wrapper's status but not for the record: early launch
     * refuses before the command starts (it used to start it, then the JVM's check refused, leaving no
     * record of what ran and a folder behind), and exec says why in one line.
     */
    @Test
    void earlyLaunchChecksRoomForTheRecordBeforeTheCommandStarts() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0,
                "mounting a small file system needs root");
        Path data = tmp.resolve("full");
        Files.createDirectories(data);
        assertEquals(0, new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m,mode=700", "tmpfs", data.toString())
                .inheritIO().start().waitFor());
        try {
            Run first = runboard(Map.of(), "", "exec", "--data-dir", data.toString(), "--", "true");
            assertEquals(0, first.exit, first.err);
            // All but 40 KiB taken: a folder and the status's 4 KiB fit, the record's ~100 KiB do not.
            long free = Files.getFileStore(data).getUsableSpace();
            try (var filler = java.nio.channels.FileChannel.open(data.resolve("filler"), java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE)) {
                filler.write(java.nio.ByteBuffer.allocate((int) (free - 40 * 1024)));
            }
            List<String> before = Files.list(data.resolve("sessions")).map(p -> p.getFileName().toString()).toList();
            Path marker = tmp.resolve("the-command-ran");

            Run refused = runboard(Map.of(), "", "exec", "--data-dir", data.toString(), "--", "touch '" + marker + "'");
            assertEquals(2, refused.exit, refused.err);
            assertTrue(refused.err.contains("could not set aside room for the record") && refused.err.contains("the disk is full"),
                    refused.err);
            assertFalse(Files.exists(marker), "the command never started");
            assertEquals(before, Files.list(data.resolve("sessions")).map(p -> p.getFileName().toString()).toList(),
                    "no folder is left behind");
        } finally {
            new dev.runboard.engine.SupervisorFixture(data).close();
            new ProcessBuilder("umount", "-l", data.toString()).inheritIO().start().waitFor();
        }
    }

    /**
     * The command's grandparent, the process that launched its wrapper and waits for it: "java" or the exec client.
     * bin/runboard launches the wrapper and then becomes that client (exec): on a loaded machine the command can
     * look before it has, so it waits (up to 10 s) for the launching shell to have become something else.
     */
    private static final String CLIENT = "gp=$(awk '/^PPid/ {print $2}' /proc/$PPID/status); n=0;"
            + " while case $(cat /proc/$gp/comm) in bash|runboard) [ $n -lt 500 ];; *) false;; esac; do sleep 0.02; n=$((n + 1)); done;"
            + " echo \"client=$(cat /proc/$gp/comm)\"; ";

    @Test
    void withTheDataDirsSupervisorUpItTakesTheCommandAndNoJvmStartsBesideIt() throws Exception {
        Path data = supervisedDataDir();
        try {
            Await.until(WAIT, "the supervisor to name its socket", () -> Files.exists(data.resolve("supervisor.address")));
            Run run = runboard(Map.of(), "piped in\n", "exec", "--data-dir", data.toString(), "--shell", "/bin/sh", "--",
                    CLIENT + "cat; exit 3");
            assertEquals(3, run.exit, run.err);
            JsonNode shown = Json.mapper().readTree(run.out);
            assertEquals("client=perl\npiped in\n", shown.get("output").asText(), "no JVM waited for the command: " + run.out);
            assertEquals("failed", shown.get("status").asText());
            assertEquals(3, shown.get("exit_code").asInt());
            assertEquals("", run.err);
            String id = shown.get("session_id").asText();
            JsonNode record = Json.mapper().readTree(data.resolve("sessions").resolve(id).resolve("session.json").toFile());
            assertEquals("failed", record.get("status").asText(), "the supervisor wrote the final record before exec ended");
            assertEquals(Path.of("").toAbsolutePath().toString(), record.get("spec").get("cwd").asText(),
                    "the command's folder is exec's, not the supervisor's");

            Run ordinary = runboard(Map.of("RUNBOARD_EXEC_CLIENT", "off"), "", "exec", "--data-dir", data.toString(), "--", CLIENT);
            assertEquals("client=java\n", Json.mapper().readTree(ordinary.out).get("output").asText(), "off: exec's JVM adopts it");
        } finally {
            new dev.runboard.engine.SupervisorFixture(data).close(); // stops it, and kills what a failure left running
        }
    }

    @Test
    void ctrlCOnASupervisedExecKillsTheTreeAndPrintsTheKilledSnapshot() throws Exception {
        Path data = supervisedDataDir();
        Path pids = tmp.resolve("pids");
        // As from a terminal: SIGINT at its default, whatever this test JVM inherited (a background job ignores it).
        Process exec = start(Map.of(), null, "env", "--default-signal=INT", BIN.toString(), "exec", "--data-dir", data.toString(),
                "--", CLIENT + "echo $$ >'" + pids + "'; sleep 600 & echo $! >>'" + pids + "'; wait");
        try {
            Await.until(WAIT, "the command and its child to start", () -> readQuietly(pids).lines().count() == 2);
            // A Ctrl-C once the supervisor holds the session (before, the wrapper ends a command nobody recorded).
            Await.until(WAIT, "the supervisor to own the session", () -> sessionRecords(data) == 1 + 1);
            List<Long> mine = Files.readAllLines(pids).stream().map(Long::parseLong).toList();
            OsProcesses.forThisMachine().signal(exec.pid(), dev.runboard.session.Signal.INT);
            String out = new String(exec.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(exec.waitFor(1, TimeUnit.MINUTES));
            assertEquals(130, exec.exitValue(), out);
            JsonNode shown = Json.mapper().readTree(out);
            assertEquals("killed", shown.get("status").asText());
            assertTrue(shown.get("output").asText().startsWith("client=perl\n"), out);
            OsProcesses os = OsProcesses.forThisMachine();
            assertTrue(os.snapshot().all().stream().filter(ProcInfo::alive).noneMatch(p -> mine.contains(p.pid())),
                    "the command's processes " + mine + " are gone from /proc when exec returns");
        } finally {
            exec.destroyForcibly();
            new dev.runboard.engine.SupervisorFixture(data).close(); // stops it, and kills what a failure left running
        }
    }

    @Test
    void aSupervisorKilledWhileItOwnsTheExecsCommandLosesNothing() throws Exception {
        Path data = supervisedDataDir();
        Path go = tmp.resolve("go");
        Path err = tmp.resolve("exec-err.txt");
        Process exec = start(Map.of(), err, BIN.toString(), "exec", "--data-dir", data.toString(), "--",
                CLIENT + "while [ ! -e '" + go + "' ]; do sleep 0.05; done; echo after; exit 5");
        try {
            Await.until(WAIT, "the supervisor to own the session", () -> sessionRecords(data) == 1 + 1);
            Run status = runboard(Map.of(), "", "supervisor", "status", "--data-dir", data.toString());
            long supervisor = Json.mapper().readTree(status.out).path("pid").asLong();
            OsProcesses.forThisMachine().signal(supervisor, dev.runboard.session.Signal.KILL);
            Await.until(WAIT, "the supervisor to be gone", () -> ProcessHandle.of(supervisor).map(h -> !h.isAlive()).orElse(true));
            Files.writeString(go, "");
            String out = new String(exec.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(exec.waitFor(2, TimeUnit.MINUTES));
            assertEquals(5, exec.exitValue(), "the command's exit code, from the supervisor that adopted it: " + Files.readString(err));
            JsonNode shown = Json.mapper().readTree(out);
            assertEquals("failed", shown.get("status").asText(), out);
            assertEquals("client=perl\nafter\n", shown.get("output").asText(), "every byte of the output: " + out);
            assertTrue(Files.readString(err).contains("the supervisor stopped answering"), Files.readString(err));
        } finally {
            exec.destroyForcibly();
            new dev.runboard.engine.SupervisorFixture(data).close(); // stops it, and kills what a failure left running
        }
    }

    @Test
    void withTheSupervisorUpEveryOtherCallIsItsAndNoJvmStarts() throws Exception {
        Path data = supervisedDataDir();
        try {
            Await.until(WAIT, "the supervisor to name its socket", () -> Files.exists(data.resolve("supervisor.address")));
            // A JVM cannot start with a 1 KB heap: every answer below is the supervisor's, through the thin client.
            Map<String, String> noJvm = Map.of("JAVA_TOOL_OPTIONS", "-Xmx1k", "RUNBOARD_HOME", data.toString());
            Run started = runboard(noJvm, "", "start", "--shell", "/bin/sh", "--", "echo \"$RUNBOARD_HOME\"; pwd");
            assertEquals(0, started.exit, started.err);
            String id = started.out.strip();
            assertEquals(0, runboard(noJvm, "", "wait", id).exit);
            JsonNode shown = Json.mapper().readTree(runboard(noJvm, "", "show", id).out);
            assertEquals(data + "\n" + Path.of("").toAbsolutePath() + "\n", shown.get("output").asText(),
                    "the caller's environment and folder");
            Run list = runboard(noJvm, "", "list", "--status", "completed");
            assertEquals(0, list.exit, list.err);
            assertTrue(list.out.lines().anyMatch(l -> l.startsWith(id)), list.out);
            assertEquals(2, runboard(noJvm, "", "show", "nosuchid").exit, "a usage error, said by the supervisor's CLI");
            assertEquals(1, runboard(Map.of("JAVA_TOOL_OPTIONS", "-Xmx1k", "RUNBOARD_THIN_CLIENT", "off",
                    "RUNBOARD_HOME", data.toString()), "", "list").exit, "off: the JVM, which cannot start here");
        } finally {
            new dev.runboard.engine.SupervisorFixture(data).close();
        }
    }

    /** A data dir of the test's own with its supervisor up: a {@code start} brings it up, and its session is one record. */
    private Path supervisedDataDir() throws Exception {
        Path data = tmp.resolve("supervised");
        Run first = runboard(Map.of("RUNBOARD_SUPERVISOR_IDLE", "5m"), "", "start", "--data-dir", data.toString(), "--", "true");
        assertEquals(0, first.exit, "start brings the supervisor up: " + first.err);
        return data;
    }

    /** How many sessions of {@code data} have a record (the start that brought the supervisor up has one). */
    private static long sessionRecords(Path data) {
        try (Stream<Path> all = Files.list(data.resolve("sessions"))) {
            return all.filter(d -> Files.exists(d.resolve("session.json"))).count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aSupervisorThatDoesNotAnswerLeavesTheCommandToExecsJvm() throws Exception {
        Path data = tmp.resolve("stale");
        assertEquals(0, runboard(Map.of(), "", "exec", "--data-dir", data.toString(), "--", "true").exit);
        // What a supervisor killed with SIGKILL leaves: its address, naming a socket nobody listens on.
        Path socket = tmp.resolve("dead.sock");
        try (java.nio.channels.ServerSocketChannel dead = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            dead.bind(java.net.UnixDomainSocketAddress.of(socket));
        }
        Files.writeString(data.resolve("supervisor.address"), socket + "\n");
        Run run = runboard(Map.of(), "", "exec", "--data-dir", data.toString(), "--", CLIENT + "exit 4");
        assertEquals(4, run.exit, run.err);
        assertEquals("client=java\n", Json.mapper().readTree(run.out).get("output").asText(), "the JVM adopted it: " + run.out);
    }

    private static List<String> sessionFolders() throws IOException {
        try (Stream<Path> all = Files.list(dataDir.resolve("sessions"))) {
            return new ArrayList<>(all.map(p -> p.getFileName().toString()).toList());
        }
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    private static String environ(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private record Run(int exit, String out, String err) {
    }

    /**
     * bin/runboard sources its launch file and hands the JVM archives from the user's cache: that folder
     * is made 0700 (its files 0600) whatever the caller's umask, and one that is not the user's own is
     * never used, so a line another user plants in it never runs.
     */
    @Test
    void theCacheIsPrivateWhateverTheUmaskAndAnotherUsersIsNeverSourced() throws Exception {
        Path cache = tmp.resolve("cache-umask-000");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = start(Map.of("XDG_CACHE_HOME", cache.toString()), err, "sh", "-c", "umask 000; exec \"$0\" \"$@\"",
                BIN.toString(), "exec", "--data-dir", dataDir.toString(), "--", "true");
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), Files.readString(err));
        Path folder = cache.resolve("runboard/v2");
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
        Path launch = folder.resolve(BIN.getParent().toString().replace('/', '%') + ".launch");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(launch)));

        if (!"root".equals(System.getProperty("user.name"))) {
            System.out.println("EarlyExecTest: the planted-cache half needs root, to make a folder of another user");
            return;
        }
        // Another user's folder where the cache would be, writable by all, with a launch file that runs a command.
        Path foreign = Files.createDirectories(tmp.resolve("cache-foreign/runboard/v2"));
        Path marker = tmp.resolve("planted-line-ran");
        Path planted = Files.writeString(foreign.resolve(launch.getFileName().toString()),
                "touch '" + marker + "'\nlaunch_fresh() { return 0; }\n");
        var nobody = foreign.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        for (Path f : List.of(foreign, planted)) {
            Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
            Files.setOwner(f, nobody);
        }
        Run run = runboard(Map.of("XDG_CACHE_HOME", tmp.resolve("cache-foreign").toString()), "", "exec", "--data-dir",
                dataDir.toString(), "--", "true");
        assertEquals(0, run.exit, run.err);
        assertTrue(!Files.exists(marker), "the planted line never ran");
    }

    private static final Path BIN = Path.of("bin/runboard").toAbsolutePath();

    /** bin/runboard with this build's jar and a cache of the test's own. */
    private static Run runboard(Map<String, String> env, String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(BIN.toString()));
        command.addAll(List.of(args));
        Path err = Files.createTempFile(shared, "err", ".txt");
        Process p = start(env, err, command.toArray(String[]::new));
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "bin/runboard ended");
        return new Run(p.exitValue(), out, Files.readString(err));
    }

    /** {@code command} (bin/runboard, or something that execs it) in bin/runboard's environment for this build; its stderr to {@code err}, else the test's. */
    private static Process start(Map<String, String> env, Path err, String... command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(err == null ? ProcessBuilder.Redirect.INHERIT
                : ProcessBuilder.Redirect.to(err.toFile()));
        pb.environment().put("RUNBOARD_JAR", jar.toString());
        pb.environment().put("XDG_CACHE_HOME", shared.resolve("cache").toString());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("RUNBOARD_HOME");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().putAll(env);
        return pb.start();
    }

    /** The jars on the test's class path (Surefire names them in its booter jar's manifest). */
    private static List<Path> libraries() throws IOException {
        List<Path> jars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            if (!entry.endsWith(".jar")) {
                continue;
            }
            try (JarFile j = new JarFile(p.toFile())) {
                String classPath = j.getManifest() == null ? null : j.getManifest().getMainAttributes().getValue("Class-Path");
                if (classPath == null) {
                    jars.add(p.toAbsolutePath());
                    continue;
                }
                for (String url : classPath.trim().split("\\s+")) {
                    Path lib = Path.of(URI.create(url).isAbsolute() ? URI.create(url) : p.toAbsolutePath().getParent().toUri().resolve(url));
                    if (lib.toString().endsWith(".jar")) {
                        jars.add(lib);
                    }
                }
            }
        }
        return jars;
    }

    private static void writeJar(Path target, Path classes, List<Path> libraries) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Launcher.class.getName());
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH,
                String.join(" ", libraries.stream().map(l -> l.toUri().toString()).toList()));
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(target), m);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }
}
