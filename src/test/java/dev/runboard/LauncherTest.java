package dev.runboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Asking for the window where no display is: a sentence saying what to do, not the toolkit's stack trace. */
class LauncherTest {
    @Test
    void theWindowWithoutADisplaySaysWhatToDoAndExits() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Launcher.class.getName());
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
    void aDisplayOrANamedJavaFxPlatformOpensIt() {
        assertNull(Display.missing(Map.of("DISPLAY", ":0"), null, "Linux"));
        assertNull(Display.missing(Map.of("WAYLAND_DISPLAY", "wayland-0"), null, "Linux"));
        assertNull(Display.missing(Map.of(), "Monocle", "Linux"), "Monocle's headless platform needs no display");
        assertNull(Display.missing(Map.of(), null, "Mac OS X"));
        assertTrue(Display.missing(Map.of("DISPLAY", " "), null, "Linux").startsWith("runboard: no display"));
    }
}
