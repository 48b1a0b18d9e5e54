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
        if (args.length == 0) {
            dev.runboard.ui.RunboardApp.launchWindow(args);
        } else {
            RunboardCli.main(args);
        }
    }
}
