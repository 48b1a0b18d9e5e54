package dev.runboard.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code runboard open DIR}: the launcher opens the window on that workspace before the CLI is
 * reached; this command gives the help text and explains a folder that cannot be opened.
 */
@Command(name = "open",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Open the window with DIR as the workspace.",
            "Its runboard.yaml commands show in a sidebar, plus the commands found in its Procfile,",
            "package.json, Makefile, mprocs.yaml,",
            "process-compose.yaml and Maven/Gradle wrappers, ready to import."},
        footer = {"", "Examples:", "  runboard open .", "  runboard open ~/src/shop"})
public final class OpenCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "The project folder (runboard.yaml is read from and saved to it).")
    Path dir;

    @Override
    public Integer call() {
        String name = spec.qualifiedName();
        if (!Files.isDirectory(dir)) {
            spec.commandLine().getErr().println(name + ": " + dir + " is not a folder");
            return RunboardCli.USAGE;
        }
        spec.commandLine().getErr().println(name + ": the window opens through the runboard launcher (runboard open "
                + dir + ")");
        return RunboardCli.USAGE;
    }
}
