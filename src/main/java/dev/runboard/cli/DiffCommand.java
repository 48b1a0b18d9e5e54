package dev.runboard.cli;

import dev.runboard.artifact.LineDiff;
import dev.runboard.artifact.UnifiedDiff;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.Run;
import dev.runboard.session.RunHistory;
import dev.runboard.session.RunKey;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runboard diff [--ignore-volatile] ID [ID2]}: what changed in a run's output since another run. */
@Command(name = "diff", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Compare two runs' outputs line by line, as a unified diff (like diff -u).",
            "With one ID, against the previous run of the same command. Streams both files: any size works.",
            "Exit status: 0 same, 1 different, 2 trouble (like diff)."},
        footer = {"", "Examples:", "  runboard diff 20261201-0930-ab12",
            "  runboard diff --ignore-volatile --last-green 20261201-0930-ab12",
            "  runboard diff OLD-ID NEW-ID"})
public final class DiffCommand implements Callable<Integer> {
    static final int SAME = 0;
    static final int DIFFERENT = 1;
    static final int TROUBLE = 2;

    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Parameters(index = "0", paramLabel = "ID", description = "The run to compare (a unique prefix is enough).")
    String id;

    @Parameters(index = "1", paramLabel = "ID2", arity = "0..1",
            description = "The run to compare it with; by default the previous run of the same command.")
    String id2;

    @Option(names = "--ignore-volatile",
            description = "Ignore numbers, timestamps, durations and hex addresses: logs differing only in timings compare equal.")
    boolean ignoreVolatile;

    @Option(names = "--last-green", description = "With one ID: compare with the last successful run before it instead.")
    boolean lastGreen;

    @Option(names = {"-q", "--brief"}, description = "Print only whether they differ, and where first.")
    boolean brief;

    /** Where the diff goes; null means the command line's output. */
    OutputStream out;

    /** Whether control characters are shown rather than sent: to a terminal, not to a pipe or file. */
    VisibleControls controls = VisibleControls.forStdout();

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Sides sides;
        try (SupervisedSessions engine = store.follow()) {
            sides = sides(engine);
        }
        OutputStream sink = controls.bytes(out != null ? out : new WriterStream(spec.commandLine().getOut()));
        UnifiedDiff diff = new UnifiedDiff(brief ? OutputStream.nullOutputStream() : sink);
        boolean same;
        try {
            diff.header(sides.oldLabel, sides.newLabel);
            same = LineDiff.compare(sides.oldFile, sides.newFile, ignoreVolatile, diff);
        } catch (IOException e) {
            err.println("diff: cannot read the outputs: " + e.getMessage());
            err.flush();
            return TROUBLE;
        }
        if (brief && !same) {
            long[] first = diff.firstDifference();
            String line = "outputs differ: first at line " + first[0] + " of " + sides.oldLabel + ", line " + first[1]
                    + " of " + sides.newLabel + "\n";
            sink.write(line.getBytes(StandardCharsets.UTF_8));
        }
        sink.flush();
        return same ? SAME : DIFFERENT;
    }

    private record Sides(Path oldFile, String oldLabel, Path newFile, String newLabel) {
    }

    private Sides sides(SupervisedSessions engine) throws UsageException {
        Session current = StoreAccess.find(engine, id);
        Session other;
        if (id2 != null) {
            other = StoreAccess.find(engine, id2);
            return new Sides(output(current), current.id(), output(other), other.id());
        }
        List<SessionSnapshot> all = engine.sessions().stream().map(s -> s.snapshot(false)).toList();
        RunHistory history = RunHistory.of(RunKey.of(current.spec()), all);
        Optional<Run> before = lastGreen ? history.lastGreen(current.id()) : history.previous(current.id());
        if (before.isEmpty()) {
            throw new UsageException("no " + (lastGreen ? "successful " : "") + "run of the same command before "
                    + current.id() + "; give a second ID (see runboard history " + current.id() + ")");
        }
        other = StoreAccess.find(engine, before.get().id());
        return new Sides(output(other), other.id(), output(current), current.id());
    }

    /** The file with the session's whole output: the artifact, else the capture file. */
    static Path output(Session session) throws UsageException {
        SessionSnapshot s = session.snapshot(false);
        for (String candidate : new String[] {s.artifact(), s.captureFile(), Session.slashes(session.captureFile())}) {
            if (candidate != null && Files.isReadable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        throw new UsageException("the output of " + session.id() + " is no longer on disk; nothing to compare");
    }

    /** Lines of bytes to the command line's writer (tests and the in-process CLI read that writer). */
    private static final class WriterStream extends OutputStream {
        private final PrintWriter writer;

        WriterStream(PrintWriter writer) {
            this.writer = writer;
        }

        @Override
        public void write(int b) {
            writer.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writer.write(new String(b, off, len, StandardCharsets.UTF_8));
        }

        @Override
        public void flush() {
            writer.flush();
        }
    }
}
