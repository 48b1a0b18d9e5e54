package dev.runboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bare {@code java -jar runboard.jar} opens the window in a second JVM with the window's options; a JVM
 * the user gave options to is left as it is; the first JVM passes the window's exit status on, and stopping
 * it stops the window.
 */
class WindowRelaunchTest {
    private static final String JAVA_HOME = "/opt/jdk";
    @TempDir
    Path dir;
    private Path parentOutput;
    private Process parent;
    private long childPid = -1;

    @BeforeEach
    void anOutputFile() {
        parentOutput = dir.resolve("parent.out");
    }

    @AfterEach
    void endEverythingStarted() throws Exception {
        if (parent != null) {
            parent.destroyForcibly();
            parent.waitFor(10, TimeUnit.SECONDS);
        }
        ProcessHandle.of(childPid).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    void aBareJavaDashJarOpensTheWindowInAJvmWithTheWindowsOptions() {
        assertTrue(WindowRelaunch.bareJar(List.of("-jar", "target/runboard.jar"), Map.of("HOME", "/home/u")));
        assertTrue(WindowRelaunch.bareJar(List.of("-jar", "runboard.jar", "open", "/tmp/w"), Map.of("JAVA_TOOL_OPTIONS", " ")),
                "a blank variable gives no option");

        List<String> command = WindowRelaunch.command(JAVA_HOME, List.of("-XX:SharedArchiveFile=/c/w.jsa"), 4242,
                Path.of("/work/target/runboard.jar"), List.of("open", "/tmp/w"));

        assertEquals(List.of(Path.of(JAVA_HOME, "bin", "java").toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Xmn32m", "-XX:SharedArchiveFile=/c/w.jsa", "-Drunboard.relaunchedFrom=4242", "-jar",
                "/work/target/runboard.jar", "open", "/tmp/w"), command);
    }

    @Test
    void aJvmGivenOptionsOfItsOwnOpensTheWindowItself() {
        assertFalse(WindowRelaunch.bareJar(List.of("-Xmx2g", "-jar", "runboard.jar"), Map.of()));
        assertFalse(WindowRelaunch.bareJar(List.of("-cp", "runboard.jar:lib/*", "dev.runboard.Launcher"), Map.of()));
        for (String variable : List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS")) {
            assertFalse(WindowRelaunch.bareJar(List.of("-jar", "runboard.jar"), Map.of(variable, "-XX:+UseG1GC")), variable);
        }
        assertFalse(WindowRelaunch.bareJar(List.of("-jar", "runboard.jar"), Map.of("RUNBOARD_RELAUNCH", "off")));
    }

    @Test
    void theFirstJvmExitsWithTheWindowsStatus() throws Exception {
        parent = startParent("sh", "-c", "exit 7");

        assertTrue(parent.waitFor(60, TimeUnit.SECONDS), "the first JVM ends with the second");
        assertEquals(7, parent.exitValue());
        assertTrue(Files.readString(parentOutput).contains("after the end"), Files.readString(parentOutput));
    }

    @Test
    void stoppingTheFirstJvmStopsTheWindow() throws Exception {
        parent = startParent("sleep", "600");
        Await.until(Duration.ofSeconds(60), "the first JVM to start the second", () -> childPid() > 0);
        childPid = childPid();
        ProcessHandle child = ProcessHandle.of(childPid).orElseThrow();

        parent.destroy(); // TERM, as a desktop session or `kill` sends it

        assertTrue(parent.waitFor(60, TimeUnit.SECONDS), "the first JVM ends on TERM");
        Await.until(Duration.ofSeconds(60), "the window's JVM to be gone from /proc", () -> !child.isAlive());
        assertTrue(Files.readString(parentOutput).contains("after the end"), "what follows the window's end runs on a TERM too");
    }

    private long childPid() {
        try {
            return Files.readAllLines(parentOutput).stream().filter(line -> line.startsWith("child "))
                    .mapToLong(line -> Long.parseLong(line.substring("child ".length()))).findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    private Process startParent(String... command) throws IOException {
        List<String> full = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Parent.class.getName()));
        full.addAll(List.of(command));
        return new ProcessBuilder(full).redirectOutput(parentOutput.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** A first JVM: runs its arguments as the relaunch runs the window's JVM, and says the child's pid once it runs. */
    public static final class Parent {
        public static void main(String[] args) throws Exception {
            Thread announce = new Thread(() -> {
                Optional<ProcessHandle> child;
                while ((child = ProcessHandle.current().children().findFirst()).isEmpty()) {
                    LockSupport.parkNanos(1_000_000); // runAndWait blocks this JVM's main thread until the child ends
                }
                System.out.println("child " + child.get().pid());
                System.out.flush();
            });
            announce.setDaemon(true);
            announce.start();
            System.exit(WindowRelaunch.runAndWait(List.of(args), () -> {
                System.out.println("after the end"); // where the window's class-data archive is moved in place
                System.out.flush();
            }));
        }
    }
}
