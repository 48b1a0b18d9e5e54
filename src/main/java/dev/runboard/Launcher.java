package dev.runboard;

import dev.runboard.cli.RunboardCli;

/**
 * The jar's entry point: no arguments opens the window, anything else is the CLI. A plain class
 * (not a JavaFX Application) so the CLI never loads JavaFX and jpackage can launch it.
 */
public final class Launcher {
    private Launcher() {
    }

    public static void main(String[] args) {
        // start carries its words as bytes, read from /proc (a folder or a command word may not be UTF-8).
        boolean asBytes = args.length > 0 && args[0].equals("start");
        String unreadable = asBytes ? null : ArgumentText.problem(args);
        if (unreadable != null) {
            System.err.println(unreadable);
            System.exit(2); // a usage error, as the CLI's are
        }
        if (args.length == 0 || opensWorkspace(args)) {
            if (handedToOpenWindow(args)) {
                System.exit(0);
            }
            String noDisplay = Display.missing(System.getenv(), System.getProperty("glass.platform"), System.getProperty("os.name"));
            if (noDisplay != null) {
                System.err.println(noDisplay);
                System.exit(1);
            }
            WindowRelaunch.runIfBareJar(); // returns only when the window opens in this JVM
            dev.runboard.ui.RunboardApp.launchWindow(args);
        } else {
            RunboardCli.main(asBytes ? dev.runboard.engine.RawProcess.arguments(args) : args);
        }
    }

    /**
     * A window of this data dir already open takes the request (shows DIR, comes to the front), rather
     * than a second window over the same sessions; said on stderr, so a script sees why nothing opened.
     */
    private static boolean handedToOpenWindow(String[] args) {
        java.util.Optional<java.nio.file.Path> folder = args.length == 2
                ? java.util.Optional.of(java.nio.file.Path.of(args[1]).toAbsolutePath().normalize()) : java.util.Optional.empty();
        if (!dev.runboard.engine.WindowDoor.knock(dev.runboard.store.DataDirs.resolve(null), folder)) {
            return false;
        }
        System.err.println("runboard: a window is already open; it now shows " + folder.map(f -> f.toString()).orElse("itself"));
        return true;
    }

    /** {@code runboard open DIR} with an existing folder opens the window; anything else about open ({@code --help}, a bad folder) is the CLI's. */
    static boolean opensWorkspace(String[] args) {
        return args.length == 2 && args[0].equals("open") && !args[1].startsWith("-")
                && java.nio.file.Files.isDirectory(java.nio.file.Path.of(args[1]));
    }
}
