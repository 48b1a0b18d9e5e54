package dev.runboard;

import java.util.Map;

/**
 * Whether a window can open in this environment. Asked by {@link Launcher} before it opens one and by
 * {@link WindowRelaunch} before it trains a class-data archive for one; its own class so neither asks the other.
 */
final class Display {
    private Display() {
    }

    /**
     * What to tell a user who asks for the window where none can open (an ssh session, a server), instead of
     * the toolkit's "Unable to open DISPLAY" stack trace; null where one can. Only on X11/Wayland systems,
     * and not when a JavaFX platform is named (Monocle, headless, needs no display).
     */
    static String missing(Map<String, String> environment, String glassPlatform, String osName) {
        if (available(environment, glassPlatform, osName)) {
            return null;
        }
        return "runboard: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set). Start it from a"
                + " desktop session, or over ssh -X; the CLI needs none: runboard exec -- CMD, runboard list, runboard --help";
    }

    /** Whether a window can open here: not an X11/Wayland system, a JavaFX platform named, or a display set. */
    static boolean available(Map<String, String> environment, String glassPlatform, String osName) {
        boolean x11OrWayland = osName != null && !osName.startsWith("Windows") && !osName.startsWith("Mac");
        return !x11OrWayland || glassPlatform != null
                || !environment.getOrDefault("DISPLAY", "").isBlank() || !environment.getOrDefault("WAYLAND_DISPLAY", "").isBlank();
    }
}
