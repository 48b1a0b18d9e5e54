package dev.runboard.cli;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.store.DataDirs;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code runboard start}: launches a session in the background and prints its id. A detached
 * {@code runboard exec} manages it (deadline, artifact, record) so it needs no window; if that
 * manager dies, the next runboard adopts the session.
 */
@Command(name = "start", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Start a command in the background and print its session id.",
            "The window, if open, shows it within one poll period. Takes exec's options."},
        footer = {"", "Examples:", "  id=$(runboard start --timeout 3600 -- make test)", "  runboard tail -f $id",
            "  runboard wait $id", "  runboard start --hang-after 300 --hang-action kill -- ./nightly.sh"})
public final class StartCommand implements Callable<Integer> {
    private static final Duration START_LIMIT = Duration.ofSeconds(30);

    @Spec
    CommandSpec spec;

    @Mixin
    SpecOptions specOptions;

    @Mixin
    StoreAccess store;

    @Override
    public Integer call() throws Exception {
        try {
            specOptions.toSpec().validate();
        } catch (InvalidSpecException e) {
            throw new UsageException(e.getMessage());
        }
        Path dataDir = DataDirs.createPrivateDirectories(store.resolve());
        Path idFile = Files.createTempFile(dataDir, ".start-", ".id");
        Files.delete(idFile);
        Path log = dataDir.resolve("manager.log");
        Process manager = new ProcessBuilder(managerCommand(dataDir, idFile))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (!Files.exists(idFile)) {
            if (!manager.isAlive()) {
                throw new IOException("the session manager exited with " + manager.exitValue() + " before starting; see " + log);
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the session manager did not start the session within " + START_LIMIT.toSeconds() + " s; see " + log);
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
        String id = Files.readString(idFile, StandardCharsets.US_ASCII).strip();
        Files.deleteIfExists(idFile);
        spec.commandLine().getOut().println(id);
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** The same JVM and class path, running {@code exec} as the detached manager in its own session. */
    private List<String> managerCommand(Path dataDir, Path idFile) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> argv = new ArrayList<>(List.of("setsid", java, "-cp", System.getProperty("java.class.path"),
                "dev.runboard.Launcher", "exec", "--data-dir", dataDir.toString(), "--manager-id-file", idFile.toString()));
        argv.addAll(specOptions.toArgs());
        return argv;
    }
}
