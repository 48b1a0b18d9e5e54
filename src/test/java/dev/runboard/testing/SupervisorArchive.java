package dev.runboard.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The supervisors the tests start, started as a user's are: from a jar, with a class-data archive. Most engine,
 * CLI and remote tests start one or more, and each spent about 1.2 s of CPU loading Jackson's, picocli's and
 * runboard's classes before it served; with the archive about 0.8 s (docs/CONTRIBUTING.md, "How the fast suite
 * stays fast"). The JDK makes no archive for a class path with a folder on it, and the tests run from
 * {@code target/classes}: so once per build (the first fork to come makes it, under a lock, the others wait and
 * reuse it) this writes {@code target/test-jvm/runboard.jar} ({@link ClassesJar}), runs one supervisor from it
 * with {@code -XX:ArchiveClassesAtExit} through a start, a list and a stop, and points every fork's supervisors
 * at both ({@code runboard.class-path}, {@code runboard.shared-archive}, which SupervisorLauncher reads). A jar
 * or archive that does not match the classes is made again; one that cannot be made costs only the speed (a line
 * says so). {@code -Drunboard.test.supervisorArchive=off} starts them from the test's own class path.
 */
public final class SupervisorArchive implements LauncherSessionListener {
    private static final String OFF = "runboard.test.supervisorArchive";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if ("off".equals(System.getProperty(OFF)) || System.getProperty("runboard.class-path") != null) {
            return;
        }
        Path classes = Path.of("target/classes").toAbsolutePath();
        if (!List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator)).contains(classes.toString())) {
            // Not a test JVM of this build: Maven's own opens a launcher session too (Surefire plans the run in it),
            // and an IDE's runner may run from other folders.
            return;
        }
        try (AutoCloseable lock = CrossForkLock.hold("supervisor-archive")) {
            Path dir = Path.of(System.getProperty("runboard.test.lockDir", "target/test-locks")).resolveSibling("test-jvm");
            Path jar = dir.resolve("runboard.jar");
            Path archive = dir.resolve("supervisor.jsa");
            Path stamp = dir.resolve("stamp");
            List<Path> libraries = ClassesJar.libraries();
            String built = stampOf(classes, libraries);
            if (!Files.isRegularFile(archive) || !Files.exists(stamp) || !Files.readString(stamp).equals(built)) {
                Files.createDirectories(dir);
                Files.deleteIfExists(stamp);
                ClassesJar.write(jar, classes, libraries);
                dump(jar, archive, dir);
                Files.writeString(stamp, built);
            }
            System.setProperty("runboard.class-path", jar.toAbsolutePath().toString());
            System.setProperty("runboard.shared-archive", archive.toAbsolutePath().toString());
        } catch (Exception e) {
            System.err.println("runboard tests: the supervisors start without a class-data archive (" + e + ")");
        }
    }

    /** What the jar is made of: every class file's path, size and time, and the libraries. */
    private static String stampOf(Path classes, List<Path> libraries) throws IOException {
        StringBuilder b = new StringBuilder();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                b.append(classes.relativize(f)).append(' ').append(Files.size(f)).append(' ')
                        .append(Files.getLastModifiedTime(f).toMillis()).append('\n');
            }
        }
        libraries.forEach(l -> b.append(l).append('\n'));
        return b.toString();
    }

    /** One supervisor from the jar, through a start, a list and a stop: the classes it loaded are the archive. */
    private static void dump(Path jar, Path archive, Path dir) throws Exception {
        Path data = Files.createTempDirectory(dir, "training");
        Path log = dir.resolve("training.log");
        Path made = dir.resolve("supervisor.jsa.tmp");
        Files.deleteIfExists(made);
        String java = ProcessHandle.current().info().command().orElse("java");
        // As SupervisorLauncher starts one (its options, this jar), and the archive written as it exits.
        Process supervisor = new ProcessBuilder(java, "-XX:ArchiveClassesAtExit=" + made, "-Xlog:cds=off",
                "-Xlog:cds+dynamic=off", "-XX:+UseSerialGC", "-Xss512k", "-XX:TieredStopAtLevel=1", "-Xms16m",
                "-cp", jar.toString(), "dev.runboard.Launcher", "supervisor", "run", "--data-dir", data.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int round = 0; !Files.exists(data.resolve("supervisor.address")); round++) {
                if (!supervisor.isAlive() || System.nanoTime() - deadline > 0) {
                    throw new IOException("the training supervisor did not come up: " + Files.readString(log));
                }
                Poll.pause(round);
            }
            cli(java, jar, dir, "start", "--data-dir", data.toString(), "--", "true");
            cli(java, jar, dir, "list", "--data-dir", data.toString());
            cli(java, jar, dir, "supervisor", "stop", "--data-dir", data.toString());
            if (!supervisor.waitFor(60, TimeUnit.SECONDS) || supervisor.exitValue() != 0 || !Files.exists(made)) {
                throw new IOException("the training supervisor made no archive: " + Files.readString(log, StandardCharsets.UTF_8));
            }
            Files.move(made, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            supervisor.destroyForcibly().waitFor();
            deleteTree(data);
        }
    }

    private static void cli(String java, Path jar, Path dir, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-cp", jar.toString(), "dev.runboard.Launcher"));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(dir.resolve("training-cli.log").toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new IOException("runboard " + String.join(" ", args) + " did not end within 60 s");
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
