package dev.runboard.cli;

import dev.runboard.artifact.TimeIndex;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.store.OwnOutputFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code runboard tail ID [-f] [--timestamps]}: a session's output, the bytes as written. */
@Command(name = "tail", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Print a session's output as written.",
            "The full artifact when there is one. With -f, keep printing as a running session writes, until it ends."})
public final class TailCommand implements Callable<Integer> {
    private static final long FOLLOW_PERIOD_NANOS = Duration.ofMillis(200).toNanos();

    @Mixin
    StoreAccess store;

    @Parameters(paramLabel = "ID", description = "The session id (a unique prefix is enough).")
    String id;

    @Option(names = {"-f", "--follow"}, description = "Follow a running session's output until it ends.")
    boolean follow;

    @Option(names = {"-t", "--timestamps"}, description = {"Put the local time each line was written (HH:MM:SS.mmm) and a space before it.",
        "From the session's time index: a line's time is at most " + TimeIndex.RESOLUTION_MILLIS + " ms late."})
    boolean timestamps;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Raw bytes to stdout, not re-encoded: the command line's own output's bytes (a test may set another). */
    PrintStream out;

    /** Whether control characters are shown rather than sent: to a terminal, not to a pipe or file. */
    VisibleControls controls = VisibleControls.forStdout();

    @Override
    public Integer call() throws Exception {
        if (out == null) {
            out = ByteWriter.bytesOf(spec.commandLine().getOut());
        }
        try (SupervisedSessions engine = store.follow(); OutputStream shown = controls.bytes(out)) {
            engine.follow(Duration.ofMillis(200));
            Session session = StoreAccess.find(engine, id);
            SessionSnapshot snap = session.snapshot();
            Path file = source(snap, session);
            if (file == null && OwnOutputFiles.OUTSIDE_DATA_DIR.equals(snap.artifactErrorCode())) {
                throw new UsageException(snap.artifactError()); // a record pointing elsewhere: nothing of it is printed
            }
            if (file == null) {
                out.print(controls.text(snap.output()));
                out.flush();
                return 0;
            }
            if (timestamps) {
                return stamped(session, file, shown);
            }
            long position = copy(file, 0, shown);
            while (follow && !session.status().isTerminal() && !readerLeft()) {
                LockSupport.parkNanos(FOLLOW_PERIOD_NANOS);
                position = copy(file, position, shown);
            }
            if (follow && session.snapshot().artifact() != null) {
                copy(Path.of(session.snapshot().artifact()), position, shown); // whatever landed before the move
            }
            return 0;
        }
    }

    /**
     * Whoever follows has gone: in the supervisor, running a thin client's {@code tail -f}, the call's
     * thread is interrupted when the client leaves (Ctrl-C), and a follow with nothing new to print
     * would otherwise go on for as long as the session runs.
     */
    private static boolean readerLeft() {
        return Thread.currentThread().isInterrupted();
    }

    /** As the plain copy, each line stamped; while running, a line waits until the index reaches it. */
    private int stamped(Session session, Path file, OutputStream shown) throws IOException {
        StampedLines lines = new StampedLines(shown, this::pastDropped);
        boolean ended = session.status().isTerminal();
        long position = lines.copy(file, 0, ended || !follow);
        while (follow && !ended && !readerLeft()) {
            LockSupport.parkNanos(FOLLOW_PERIOD_NANOS);
            ended = session.status().isTerminal();
            Path now = ended ? source(session.snapshot(), session) : file;
            position = lines.copy(now == null ? file : now, position, ended);
        }
        return 0;
    }

    /**
     * Where to go on from {@code position} in an output whose first {@code start} bytes were dropped to keep
     * it to max_output: said on stderr (stdout stays the output's bytes), once for the start and once for
     * each later cut that overtook a follow.
     */
    long pastDropped(long position, long start) {
        if (position >= start) {
            return position;
        }
        java.io.PrintWriter err = spec == null ? new java.io.PrintWriter(System.err, true) : spec.commandLine().getErr();
        err.println("runboard: " + (position == 0
                ? dev.runboard.session.OutputPreview.droppedNotice(start) + "; the output starts at the first whole line kept"
                : (start - position) + " more bytes were dropped (max_output) before they were printed"));
        err.flush();
        return start;
    }

    /** The last byte printed did not end a line. */
    private boolean midLine;

    /**
     * As {@link #pastDropped}, for the plain copy: a follow overtaken in the middle of a line ends that line
     * first, so the next whole line kept does not run on from half of a dropped one.
     */
    private long overtaken(long position, long start, OutputStream out) throws IOException {
        if (position < start && midLine) {
            out.write('\n');
            midLine = false;
        }
        return pastDropped(position, start);
    }

    /** The file that holds the whole output: the live capture, the artifact, or a kept capture; null when the preview is all. */
    private static Path source(SessionSnapshot snap, Session session) {
        if (!snap.status().isTerminal() && Files.exists(session.captureFile())) {
            return session.captureFile();
        }
        if (snap.artifact() != null && Files.exists(Path.of(snap.artifact()))) {
            return Path.of(snap.artifact());
        }
        if (snap.captureFile() != null && Files.exists(Path.of(snap.captureFile()))) {
            return Path.of(snap.captureFile());
        }
        return null;
    }

    private long copy(Path file, long from, OutputStream out) throws IOException {
        long position = from;
        try (FileChannel ch = dev.runboard.session.OutputFile.open(file)) {
            position = overtaken(position, dev.runboard.session.OutputFile.start(ch), out);
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            while (true) {
                int n;
                try {
                    n = ch.read(buf.clear(), position);
                } catch (dev.runboard.session.OutputFile.Dropped cut) {
                    position = overtaken(position, cut.start(), out); // cut while this was printing: go on after the cut
                    continue;
                }
                if (n <= 0) {
                    break;
                }
                out.write(buf.array(), 0, n);
                position += n;
                midLine = buf.array()[n - 1] != '\n';
            }
        } catch (java.nio.file.NoSuchFileException moved) {
            return position; // persisted as an artifact meanwhile; the caller picks it up
        }
        out.flush();
        return position;
    }
}
