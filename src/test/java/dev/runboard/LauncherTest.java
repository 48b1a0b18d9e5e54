package dev.runboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import dev.runboard.engine.WindowDoor;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Asking for the window where no display is: a sentence saying what to do, not the toolkit's stack trace. */
class LauncherTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path project;

    @Test
    void theWindowWithoutADisplaySaysWhatToDoAndExits() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Launcher.class.getName());
        builder.environment().put("RUNBOARD_HOME", dataDir.toString());
        builder.environment().remove("DISPLAY");
        builder.environment().remove("WAYLAND_DISPLAY");
        Process window = builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String stderr = new String(window.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

        assertTrue(window.waitFor(60, TimeUnit.SECONDS));
        assertEquals(1, window.exitValue());
        assertTrue(stderr.startsWith("runboard: no display to open the window on"), stderr);
        assertTrue(stderr.contains("runboard exec -- CMD"), stderr);
        assertFalse(stderr.contains("Exception"), stderr);
    }

    @Test
    void openWithAWindowAlreadyOpenHandsTheFolderToItInsteadOfOpeningASecond() throws Exception {
        BlockingQueue<Optional<Path>> asked = new LinkedBlockingQueue<>();
        try (WindowDoor door = WindowDoor.open(dataDir, asked::add).orElseThrow()) {
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), Launcher.class.getName(), "open", project.toString());
            builder.environment().put("RUNBOARD_HOME", dataDir.toString());
            builder.environment().remove("DISPLAY"); // no display either: it must not get as far as a window of its own
            builder.environment().remove("WAYLAND_DISPLAY");
            Process second = builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String stderr = new String(second.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(second.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, second.exitValue(), stderr);
            assertEquals("runboard: a window is already open; it now shows " + project.toAbsolutePath().normalize() + "\n", stderr);
            assertEquals(Optional.of(project.toAbsolutePath().normalize()), asked.poll(20, TimeUnit.SECONDS));
        }
    }

    @Test
    void aDisplayOrANamedJavaFxPlatformOpensIt() {
        assertNull(Display.missing(Map.of("DISPLAY", ":0"), null, "Linux"));
        assertNull(Display.missing(Map.of("WAYLAND_DISPLAY", "wayland-0"), null, "Linux"));
        assertNull(Display.missing(Map.of(), "Monocle", "Linux"), "Monocle's headless platform needs no display");
        assertNull(Display.missing(Map.of(), null, "Mac OS X"));
        assertTrue(Display.missing(Map.of("DISPLAY", " "), null, "Linux").startsWith("runboard: no display"));
    }
}
