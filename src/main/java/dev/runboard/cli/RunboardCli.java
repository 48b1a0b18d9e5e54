package dev.runboard.cli;

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
            HistoryCommand.class, DiffCommand.class, CommandLine.HelpCommand.class})
public final class RunboardCli {

    /** Exit code for a usage error (bad flag, invalid session spec). */
    public static final int USAGE = 2;

    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new RunboardCli());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((ex, a) -> {
            String name = ex.getCommandLine().getCommandSpec().qualifiedName();
            err.println(name + ": " + ex.getMessage() + " (see " + name + " --help)");
            err.flush();
            return USAGE;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof UsageException) {
                err.println(commandLine.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
                err.flush();
                return USAGE;
            }
            throw ex;
        });
        return cli.execute(args);
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(args, out, err));
    }
}
