package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import dev.runboard.process.EarlyLaunch;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.ExecExitCode;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import dev.runboard.store.DataDirs;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code runboard exec}: one session in the foreground; its final snapshot as JSON; its exit code as ours. */
@Command(name = "exec",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Run a command in the foreground and print its final snapshot as JSON.",
            "Exits with the command's exit code (124 on timeout, 125 if it could not start or its exit is unknown,",
            "143 when a --fail-on rule killed it while it ran (128 + TERM's 15, as a shell reports it),",
            "1 when a --fail-on rule failed a command that exited 0, 2 on a usage error).",
            "Ctrl-C kills the whole tree.",
            "With --host the data dir's supervisor runs the session (started when none runs), as for start."},
        footer = {"", "Examples:", "  runboard exec -- make test",
            "  runboard exec --timeout 600 --cwd ~/src/app -- ./gradlew build",
            "  runboard exec --no-shell -- python3 -c 'print(42)'",
            "  runboard exec --fail-on ERROR --highlight WARN --notify-on ready -- make dev",
            "  runboard exec --hang-after 120 --hang-action kill -- ./flaky-tests.sh",
            "  runboard exec --max-rss 2G --max-cpu 150 --max-cpu-for 30 -- ./etl.py"})
public final class ExecCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    SpecOptions specOptions;

    private boolean printed;
    private PrintWriter out;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Where sessions, captures and artifacts live (default: $RUNBOARD_HOME, else $XDG_DATA_HOME/runboard, else ~/.local/share/runboard).")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        Path dir = StoreAccess.check(DataDirs.resolve(dataDir), spec);
        return run(dir, specOptions.toSpec(), spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /** The session itself, its options already parsed. */
    int run(Path dir, SessionSpec sessionSpec, PrintWriter out, PrintWriter err) throws Exception {
        this.out = out;
        ClientCall call = ClientCall.current();
        if (sessionSpec.host() != null && !sessionSpec.isSlurm() || call.relayed()) {
            return new SupervisedExec(SupervisorClient.forDataDir(dir, call.environment()), sessionSpec, call, out, err).run();
        }
        try (SessionEngine engine = SessionEngine.forDataDir(dir)) {
            if (sessionSpec.isSlurm()) {
                // A login host (--host with --slurm) through the ssh layer, whose sbatch and squeue are this JVM's calls.
                dev.runboard.remote.SshSessions ssh = sessionSpec.host() != null ? dev.runboard.remote.SshSessions.forDataDir(dir) : null;
                if (ssh != null) {
                    engine.useRemote(ssh);
                }
                engine.useSlurm(new dev.runboard.slurm.SlurmSessions(dir, ssh));
            }
            // Hang, guard and rule findings as they happen, one line each (the JSON's events keep them too).
            engine.onEvent((session, event) -> printEvent(event.kind(), event.message(), err));
            CompletableFuture<Session> started = new CompletableFuture<>();
            CompletableFuture<SessionSnapshot> ended = new CompletableFuture<>();
            // The end as soon as it is decided: the snapshot is built and printed here while a worker writes
            // and fsyncs the final record (two cores: side by side); `ended` is heard once it is on disk.
            CompletableFuture<SessionSnapshot> decided = new CompletableFuture<>();
            engine.onEndDecided(s -> decided.complete(s.snapshot()));
            // Registered before the start so that a Ctrl-C at any moment still ends the tree. The JVM
            // halts when its hooks return, so the hook itself prints the killed snapshot.
            Thread onCtrlC = new Thread(() -> awaitQuietly(started).ifPresent(session -> {
                if (!session.status().isTerminal()) {
                    engine.kill(session, Signal.TERM, sessionSpec.grace()).join();
                    awaitQuietly(ended).ifPresent(this::printOnce);
                }
            }), "runboard-exec-interrupt");
            Runtime.getRuntime().addShutdownHook(onCtrlC);
            Session session;
            // bin/runboard may have launched the command already, before this JVM started: then it is adopted.
            java.util.Optional<EarlyLaunch> early = EarlyLaunch.fromEnvironment();
            try {
                session = early.isPresent() ? engine.adoptEarly(sessionSpec, early.get()) : engine.startAttached(sessionSpec);
            } catch (InvalidSpecException e) {
                started.cancel(false);
                err.println("runboard exec: " + e.getMessage());
                err.flush();
                return RunboardCli.USAGE;
            }
            session.addListener(ended::complete);
            started.complete(session);
            // The snapshot's serializer is found while the command runs, not after it ended (docs/BENCHMARKS.md §10, round 5).
            Json.writerFor(SessionSnapshot.class);
            // A session that never ran (it could not start) is recorded and announced without a decided step.
            SessionSnapshot last = (SessionSnapshot) CompletableFuture.anyOf(decided, ended).get();
            try {
                Runtime.getRuntime().removeShutdownHook(onCtrlC);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C arrived as the session ended: the hook is running; printing once below is still right.
            }
            printOnce(last);
            ended.get(); // the final record is on disk before this JVM exits
            return ExecExitCode.of(last);
        }
    }

    /**
     * Synchronized, not just a flag: when the main thread is mid-print as Ctrl-C arrives, the hook
     * must wait for it to finish, or the JVM halts with the snapshot half written.
     */
    private synchronized void printOnce(SessionSnapshot last) {
        if (!printed) {
            printed = true;
            ByteWriter.printLine(out, Json.writeBytes(last));
        }
    }

    /**
     * {@code runboard: hang: no output for 2 s (hang watchdog)}: one line, whatever the message held. SupervisedExec
     * prints the events it reads from the supervisor so too.
     */
    static void printEvent(String kind, String message, PrintWriter err) {
        err.println("runboard: " + kind + ": " + message.replaceAll("\\R", " "));
        err.flush();
    }

    private static <T> java.util.Optional<T> awaitQuietly(CompletableFuture<T> future) {
        try {
            return java.util.Optional.of(future.get(10, TimeUnit.SECONDS));
        } catch (TimeoutException | java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
            return java.util.Optional.empty(); // the JVM is exiting anyway; the kill has been sent
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }
}
