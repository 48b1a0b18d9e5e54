package dev.runboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.store.Json;
import dev.runboard.process.Await;
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
    void aJvmThatDiesBeforeAdoptingTheCommandLeavesNothingOfItRunning() throws Exception {
        Path pids = tmp.resolve("pids");
        List<String> before = sessionFolders();
        // A JVM that cannot start: the command is already running, and nobody will ever write its record.
        Run run = runboard(Map.of("JAVA_TOOL_OPTIONS", "-Xmx1k"), "", "exec", "--data-dir", dataDir.toString(), "--",
                "echo $$ >'" + pids + "'; sleep 600 & echo $! >>'" + pids + "'; echo started; wait");
        assertTrue(run.exit != 0, "the JVM failed: " + run.err);
        List<String> made = sessionFolders();
        made.removeAll(before);
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
        if (Files.exists(pids)) {
            List<Long> mine = Files.readAllLines(pids).stream().map(Long::parseLong).toList();
            // From /proc, as a user's ps: a killed process its dead parent left unreaped (a zombie) has ended.
            Await.until(WAIT, "the command's processes " + mine + " gone", () -> os.snapshot().all().stream()
                    .filter(ProcInfo::alive).noneMatch(p -> mine.contains(p.pid())));
        }
        assertFalse(Files.exists(folder.resolve("lock")), "no lock left to make the folder look like a session being made");
    }

    private static List<String> sessionFolders() throws IOException {
        try (Stream<Path> all = Files.list(dataDir.resolve("sessions"))) {
            return new ArrayList<>(all.map(p -> p.getFileName().toString()).toList());
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

    /** bin/runboard with this build's jar and a cache of the test's own. */
    private static Run runboard(Map<String, String> env, String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of("bin/runboard").toAbsolutePath().toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("RUNBOARD_JAR", jar.toString());
        pb.environment().put("XDG_CACHE_HOME", shared.resolve("cache").toString());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("RUNBOARD_HOME");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().putAll(env);
        Path err = Files.createTempFile(shared, "err", ".txt");
        Process p = pb.redirectError(err.toFile()).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "bin/runboard ended");
        return new Run(p.exitValue(), out, Files.readString(err));
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
