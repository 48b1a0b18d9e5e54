package dev.runboard.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.artifact.TimeIndex;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.Durations;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.stack.StackLog;
import dev.runboard.store.Json;
import dev.runboard.workspace.Workspace;
import dev.runboard.workspace.WorkspaceException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code runboard logs [NAME…] [-f]}: a stack's outputs as one log, each line after its command's name. */
@Command(name = "logs", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Print a workspace's output as one log: every run 'up' started from the file, restarts too,",
            "whole lines in the order they were written (each session's time index: at most " + TimeIndex.RESOLUTION_MILLIS
                    + " ms late), each after its command's name, in its colour on a terminal.",
            "With -f, keep printing through restarts until every command of the log has ended."},
        footer = {"", "Exit status: 0; 2 when FILE cannot be read or a NAME is not a command of it.", "",
            "Examples:", "  runboard logs", "  runboard logs -f web worker", "  runboard logs --since 10m --json"})
public final class LogsCommand implements Callable<Integer> {
    private static final long FOLLOW_PERIOD_NANOS = Duration.ofMillis(200).toNanos();
    /** How long -f waits, once every run has ended, for a restart or a later up before it ends too. */
    static final Duration SETTLE = Duration.ofSeconds(2);
    /** ANSI foreground colours for the prefixes: cyan, yellow, green, magenta, blue, red (bright variants read on dark and light). */
    private static final int[] ANSI = {36, 33, 32, 35, 34, 31};

    @Mixin
    StoreAccess store;

    @Option(names = "--file", paramLabel = "FILE", description = "The workspace file (default: ./runboard.yaml).")
    Path file;

    @Option(names = {"-f", "--follow"}, description = "Keep printing new lines as they are written, through restarts,"
            + " until every command of the log has ended.")
    boolean follow;

    @Option(names = "--since", paramLabel = "D", description = "Only lines written in the last D (30s, 10m, 1h30m).")
    String since;

    @Option(names = "--json", description = "One JSON object per line: {time, name, session, line}.")
    boolean json;

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "Commands of the file (default: all of them).")
    List<String> names = new ArrayList<>();

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Raw bytes to stdout (a test may set another). */
    PrintStream out;

    /** Whether stdout is a terminal: colours on, control characters in the output shown rather than obeyed. */
    boolean terminal = ClientCall.current().terminal();

    @Override
    public Integer call() throws Exception {
        Path workspaceFile = UpCommand.fileOrDefault(file);
        Workspace workspace = load(workspaceFile);
        for (String name : names) {
            if (!workspace.commands().containsKey(name)) {
                throw new UsageException("'" + name + "' is not a command of " + workspaceFile + " (commands: "
                        + (workspace.commands().isEmpty() ? "none" : String.join(", ", workspace.commands().keySet())) + ")");
            }
        }
        long sinceMillis = since == null ? 0 : System.currentTimeMillis() - parseSince(since).toMillis();
        StackLog log = new StackLog(workspaceFile, new LinkedHashSet<>(names), sinceMillis);
        int width = StackLog.shown(workspace.commands().keySet(), names).stream().mapToInt(String::length).max().orElse(0);
        if (out == null) {
            out = ByteWriter.bytesOf(spec.commandLine().getOut());
        }
        VisibleControls controls = new VisibleControls(terminal);
        try (SupervisedSessions engine = store.follow(); OutputStream shown = controls.bytes(out)) {
            engine.follow(Duration.ofMillis(200));
            LinePrinter printer = new LinePrinter(width, shown);
            List<SessionSnapshot> first = snapshots(engine);
            if (follow) {
                log.drainSettled(first, printer::print);
            } else {
                log.drain(first, printer::print);
            }
            out.flush();
            long endedSince = -1;
            while (follow && !Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(FOLLOW_PERIOD_NANOS);
                List<SessionSnapshot> now = snapshots(engine);
                boolean ended = log.allEnded(now); // before the drain: a run that ends now is read to its end first
                if (log.drainSettled(now, printer::print) > 0) {
                    out.flush();
                }
                if (!ended) {
                    endedSince = -1;
                } else if (endedSince < 0) {
                    endedSince = System.nanoTime();
                } else if (System.nanoTime() - endedSince >= SETTLE.toNanos()) {
                    break;
                }
            }
            out.flush();
        }
        return 0;
    }

    private static List<SessionSnapshot> snapshots(SupervisedSessions engine) {
        return engine.sessions().stream().map(s -> s.snapshot(false)).toList();
    }

    private static Workspace load(Path workspaceFile) throws UsageException {
        if (!Files.isRegularFile(workspaceFile)) {
            throw new UsageException(workspaceFile + " does not exist: run logs in a workspace folder, or name the file with --file");
        }
        try {
            return Workspace.read(workspaceFile);
        } catch (WorkspaceException e) {
            throw new UsageException(e.withWholePath());
        }
    }

    private static Duration parseSince(String text) throws UsageException {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--since " + text + ": " + e.getMessage());
        }
    }

    /** Prints one entry: as JSON, or after its command's name, padded, in its colour on a terminal. */
    private final class LinePrinter {
        private final int width;
        private final OutputStream shown;
        private final com.fasterxml.jackson.databind.ObjectWriter oneLine =
                Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT);

        LinePrinter(int width, OutputStream shown) {
            this.width = width;
            this.shown = shown;
        }

        void print(StackLog.Entry e) {
            try {
                if (json) {
                    ObjectNode o = Json.mapper().createObjectNode();
                    o.put("time", e.time().toString());
                    o.put("name", e.name());
                    o.put("session", e.sessionId());
                    o.put("line", e.text());
                    out.write(oneLine.writeValueAsBytes(o));
                    out.write('\n');
                    return;
                }
                String prefix = e.name() + " ".repeat(Math.max(0, width - e.name().length())) + " | ";
                if (terminal) {
                    prefix = "\033[" + ANSI[StackLog.colourOf(e.name())] + "m" + prefix + "\033[0m";
                }
                out.write(prefix.getBytes(StandardCharsets.UTF_8));
                out.flush();
                shown.write(e.line());
                shown.flush();
                out.write('\n');
            } catch (IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
        }
    }
}
