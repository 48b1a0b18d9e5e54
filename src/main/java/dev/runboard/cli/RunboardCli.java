package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The command-line front: {@code runboard <subcommand> ...}. Uses the engine directly; no window. */
@Command(name = "runboard",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Run long commands and watch them: with no arguments, runboard opens its window;",
            "with a subcommand, it works from the terminal on the same data."},
        subcommands = {ExecCommand.class, StartCommand.class, ListCommand.class, ShowCommand.class, TailCommand.class,
            KillCommand.class, SignalCommand.class, WaitCommand.class, OpenCommand.class, SupervisorCommand.class,
            GrepCommand.class, ConfigCommand.class, RemoveCommand.class, UpCommand.class, DownCommand.class,
            QueueCommand.class, HistoryCommand.class, LogsCommand.class, DiffCommand.class, CompletionCommand.class,
            NamesCommand.class, CommandLine.HelpCommand.class})
public final class RunboardCli {

    /** Exit code for a usage error (bad flag, invalid session spec). */
    public static final int USAGE = 2;

    /** The command line, its help laid out for an 80-column terminal, descriptions whole (see {@link HelpText}). */
    static CommandLine commandLine() {
        return laidOut(new CommandLine(new RunboardCli()));
    }

    private static CommandLine laidOut(CommandLine cli) {
        cli.setUsageHelpWidth(HelpText.WIDTH);
        cli.setUsageHelpAutoWidth(false);
        HelpText.install(cli);
        return cli;
    }

    /** Runs the command line for {@code call}'s client (the supervisor, for a thin client: its folder, environment, terminal). */
    public static int run(String[] args, ClientCall call, PrintWriter out, PrintWriter err) {
        return ClientCall.during(call, () -> run(args, out, err));
    }

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        // exec builds only its own model: picocli reflects over every subcommand it is given, and its
        // Java 5 classes cannot be class-data shared (docs/BENCHMARKS.md §10).
        boolean execOnly = args.length > 0 && args[0].equals("exec");
        if (execOnly) {
            args = java.util.Arrays.copyOfRange(args, 1, args.length);
            // The record's and the snapshot's writers are made beside picocli's model, not after it.
            dev.runboard.store.Json.prepareWriters(dev.runboard.store.SessionRecord.class,
                    dev.runboard.session.SessionSnapshot.class);
        }
        CommandLine cli = execOnly ? laidOut(new CommandLine(new ExecCommand()).setCommandName("runboard exec"))
                : commandLine();
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((ex, a) -> {
            String name = ex.getCommandLine().getCommandSpec().qualifiedName();
            err.println(name + ": " + ex.getMessage() + " (see " + name + " --help)");
            err.flush();
            return USAGE;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            String name = commandLine.getCommandSpec().qualifiedName();
            if (ex instanceof UsageException || ex instanceof SupervisorClient.RequestException refused && refused.usage()) {
                err.println(name + ": " + ex.getMessage());
                err.flush();
                return USAGE;
            }
            if (ex instanceof java.io.IOException || ex instanceof java.io.UncheckedIOException) {
                // A refusal, a dead or silent supervisor, a file that cannot be read: one line, which says what to do.
                err.println(name + ": " + ex.getMessage());
                err.flush();
                return 1;
            }
            throw ex;
        });
        return cli.execute(args);
    }

    public static void main(String[] args) {
        PrintWriter out = new ByteWriter(System.out);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(args, out, err));
    }
}
