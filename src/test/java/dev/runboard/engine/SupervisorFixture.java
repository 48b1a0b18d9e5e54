package dev.runboard.engine;

import dev.runboard.cli.RunboardCli;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.session.Signal;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A data dir with its supervisor, as a user's CLI meets it: commands run in-process through
 * {@link RunboardCli}, the supervisor is the real detached JVM they start. Closing stops the
 * supervisor and kills whatever a failed test left running (found by tag, as ps would).
 */
public final class SupervisorFixture implements AutoCloseable {
    private final Path dataDir;
    private final SupervisorClient client;

    public SupervisorFixture(Path dataDir) {
        this.dataDir = dataDir;
        this.client = SupervisorClient.forDataDir(dataDir);
    }

    public record Result(int exit, String out, String err) {
    }

    public Result cli(String... args) {
        return cli(dataDir, args);
    }

    /** A CLI command run in-process on {@code dataDir}, as a user's terminal would show it. */
    public static Result cli(Path dataDir, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        int at = args.length > 1 && (args[0].equals("supervisor") || args[0].equals("config")) ? 2 : 1;
        all.add(at, "--data-dir");
        all.add(at + 1, dataDir.toString());
        int code = RunboardCli.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    /**
     * {@code runboard start ARGS} as a user types it: the new session's id, or the test fails with
     * what start printed (a refused start otherwise surfaces later as a confusing wait).
     */
    public String start(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "start";
        System.arraycopy(args, 0, all, 1, args.length);
        Result started = cli(all);
        org.junit.jupiter.api.Assertions.assertEquals(0, started.exit(), "start refused: " + started.out() + started.err());
        return started.out().strip();
    }

    /** {@code runboard show ID}'s JSON, as a user reads it. */
    public com.fasterxml.jackson.databind.JsonNode show(String id) {
        try {
            return dev.runboard.store.Json.mapper().readTree(cli("show", id).out());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public SupervisorClient client() {
        return client;
    }

    /** The last 30 lines of the supervisor's log, or why there are none: for a failure to say what the supervisor saw. */
    public String logTail() {
        Path log = client.paths().log();
        try {
            List<String> lines = java.nio.file.Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(" + log + ": " + e + ")";
        }
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The running supervisor's pid, or -1 when none answers. */
    public long supervisorPid() throws IOException {
        Supervisor.Status status = client.statusIfRunning();
        return status == null ? -1 : status.pid();
    }

    /** Whether a process holds {@code lock} (the supervisor's, which it keeps for as long as it lives). */
    private static boolean held(Path lock) {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(lock, java.nio.file.StandardOpenOption.WRITE);
             java.nio.channels.FileLock taken = ch.tryLock()) {
            return taken == null;
        } catch (java.nio.file.NoSuchFileException never) {
            return false;
        } catch (java.nio.channels.OverlappingFileLockException inThisJvm) {
            return true;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        // Gone when nobody holds its lock: the supervisor writes its last files (the list index, the socket's and the
        // address's removal) before it lets go. Once, a supervisor just resumed from SIGSTOP answered neither the
        // question for its pid nor the stop (a connection it took as nobody listening), lived on to its idle exit, and
        // the test's folder was deleted under it: the stop is asked again until the lock is free.
        Path lock = client.paths().lock();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (held(lock)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the supervisor of " + dataDir + " still holds " + lock + " 20 s after it was asked to stop");
            }
            try {
                client.stop();
            } catch (IOException e) {
                // asked again while the lock is held
            }
            try {
                dev.runboard.testing.Poll.waitFor(2, java.util.concurrent.TimeUnit.SECONDS, () -> !held(lock));
            } catch (java.util.concurrent.TimeoutException again) {
                // still held: asked again
            }
        }
        OsProcesses os = OsProcesses.forThisMachine();
        for (String id : new SessionStore(dataDir).ids()) {
            String tag = "RUNBOARD_SESSION=" + id;
            for (ProcInfo p : os.snapshot().all()) {
                if (p.alive() && p.pid() != ProcessHandle.current().pid() && os.hasEnvEntry(p.pid(), tag)) {
                    os.signal(p.pid(), Signal.KILL);
                }
            }
        }
    }
}
