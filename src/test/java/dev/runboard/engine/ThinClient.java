package dev.runboard.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * bin/runboard's thin client (bin/runboard-client.pl) as a user's shell runs it: a real Perl process
 * that talks to the data dir's supervisor, with a JVM of this build's classes to hand the call to when
 * it cannot. What it printed, as bytes a terminal would get, and its exit code.
 */
public final class ThinClient {

    private final Path dataDir;
    private final Map<String, String> env;
    private final Path folder;

    private ThinClient(Path dataDir, Map<String, String> env, Path folder) {
        this.dataDir = dataDir;
        this.env = env;
        this.folder = folder;
    }

    public static ThinClient of(Path dataDir) {
        return new ThinClient(dataDir, Map.of(), null);
    }

    /** The same client with these variables set (or removed, for a null value) and run in {@code folder}. */
    public ThinClient in(Path folder, Map<String, String> env) {
        return new ThinClient(dataDir, env, folder);
    }

    public record Run(int exit, byte[] out, String err) {
        public String text() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    /** The command line after {@code runboard}, with {@code --data-dir} after its subcommand (after two words for supervisor and config). */
    public Run run(String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(args));
        int at = args.length > 1 && (args[0].equals("supervisor") || args[0].equals("config")) ? 2 : 1;
        argv.add(Math.min(at, argv.size()), "--data-dir=" + dataDir);
        return runExactly(argv);
    }

    /** The command line as given: the test names the data dir itself, or leaves it to the environment. */
    public Run runExactly(List<String> argv) throws IOException, InterruptedException {
        Process p = start(argv);
        p.getOutputStream().close();
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the thin client did not end: " + argv);
        }
        return new Run(p.exitValue(), out, new String(err.join(), StandardCharsets.UTF_8));
    }

    private Process start(List<String> argv) throws IOException {
        String socket = address();
        List<String> command = new ArrayList<>(List.of("perl", client(dataDir).toString(), socket, dataDir.toString(),
                String.valueOf(argv.size())));
        command.addAll(argv);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "dev.runboard.Launcher"));
        ProcessBuilder pb = new ProcessBuilder(command);
        if (folder != null) {
            pb.directory(folder.toFile());
        }
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        return pb.start();
    }

    /**
     * A started client whose output the test reads as it comes (tail -f), its stdin open (exec --host reads it):
     * stop it with {@link Process#destroy}. No JVM to hand over to: a call the supervisor does not take fails.
     */
    public Process start(String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(args));
        argv.add(1, "--data-dir=" + dataDir);
        List<String> command = new ArrayList<>(List.of("perl", client(dataDir).toString(), address(), dataDir.toString(),
                String.valueOf(argv.size())));
        command.addAll(argv);
        command.addAll(List.of("false"));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** The thin client the data dir's supervisor installed (the jar's, when none has: the client then hands over to the JVM). */
    static Path client(Path dataDir) throws IOException {
        Path installed = dataDir.resolve("bin").resolve(ClientScripts.CLIENT);
        if (Files.exists(installed)) {
            return installed;
        }
        ClientScripts.install(dataDir);
        return installed;
    }

    /** The supervisor's socket as it names it (a path that does not exist when none is up: the client then hands over to the JVM). */
    private String address() throws IOException {
        Path address = dataDir.resolve("supervisor.address");
        if (!Files.exists(address)) {
            return dataDir.resolve("no-supervisor.sock").toString();
        }
        return Files.readAllLines(address).get(0);
    }
}
