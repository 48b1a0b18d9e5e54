package dev.runboard.cli;

import dev.runboard.engine.Supervisor;
import dev.runboard.engine.SupervisorClient;
import dev.runboard.engine.SupervisorPaths;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runboard supervisor status|stop}: see or end the data dir's supervisor. */
@Command(name = "supervisor", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"See or stop the supervisor: the one background runboard that owns a data dir's sessions.",
            "Clients (the window, start, kill, list...) start it when they need it; it exits when idle.",
            "Stopping it leaves the sessions running; the next client brings a supervisor back that adopts them."},
        subcommands = {SupervisorCommand.Status.class, SupervisorCommand.Stop.class, SupervisorCommand.Run.class})
public final class SupervisorCommand {

    @Command(name = "status", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
            description = "Print the running supervisor's pid, socket and sessions as JSON; exit 1 when none runs.")
    static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        StoreAccess store;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            dev.runboard.engine.Supervisor.Status status = SupervisorClient.forDataDir(store.checked()).statusIfRunning();
            if (status == null) {
                out.println("{\"running\": false}");
                out.flush();
                return 1;
            }
            out.println(Json.write(status));
            out.flush();
            return 0;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
            description = "Stop the supervisor. Its sessions keep running and are adopted by the next one.")
    static final class Stop implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        StoreAccess store;

        @Override
        public Integer call() throws Exception {
            boolean stopped = SupervisorClient.forDataDir(store.resolve()).stop();
            spec.commandLine().getOut().println(stopped ? "stopped" : "no supervisor was running");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** What a client runs to bring a supervisor up (detached); not for people. */
    @Command(name = "run", hidden = true, description = "Run the supervisor in the foreground.")
    static final class Run implements Callable<Integer> {
        @Mixin
        StoreAccess store;

        @Override
        public Integer call() throws Exception {
            return new Supervisor(SupervisorPaths.of(store.checked()), StartCommand::parseSpec, Run::runForClient).run();
        }

        /** Runs a thin client's command line for that client (see {@link dev.runboard.engine.ClientCommands}). */
        static int runForClient(java.util.List<String> argv, java.util.Map<String, String> environment, String folder,
                                boolean terminal, java.util.function.Supplier<java.io.InputStream> input,
                                java.io.OutputStream out, java.io.OutputStream err) {
            PrintWriter errors = new PrintWriter(new java.io.OutputStreamWriter(err, java.nio.charset.StandardCharsets.UTF_8), true);
            String unreadable = ClientArguments.problem(argv);
            if (unreadable != null) {
                errors.println(unreadable);
                return RunboardCli.USAGE;
            }
            return RunboardCli.run(argv.toArray(String[]::new), new ClientCall(environment, folder, terminal, input),
                    new ByteWriter(out, java.nio.charset.StandardCharsets.UTF_8), errors);
        }
    }
}
