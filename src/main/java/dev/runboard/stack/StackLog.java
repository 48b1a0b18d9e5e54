package dev.runboard.stack;

import dev.runboard.artifact.TimedLines;
import dev.runboard.session.SessionSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One stack's outputs as one log (issue #45): the whole lines of every run of its commands (restarts
 * and earlier runs too) merged in time order by each run's line time index, every line handed out
 * exactly once however often {@link #drain} is called. What {@code runboard logs} prints and the
 * window's Logs tab shows. Not thread-safe: one reader drains it.
 *
 * <p>Lines of running sessions come as far as their index reaches, so a round merges what every run
 * had written by then; a line another run wrote earlier but whose index entry came later can only
 * follow in the next round; a follower therefore holds back its newest {@link #HOLD_MILLIS} ms.
 */
public final class StackLog {
    /** How many colours a command's prefix can take; {@link #colourOf} picks one. */
    public static final int COLOURS = 6;
    /**
     * How long a follower holds back the newest lines. A line's time is at most the index's resolution late,
     * but its entry reaches the disk when the owner's sampler runs: on a loaded CI a run's entry came 177 ms
     * after another run's later lines had been given, with a hold of one resolution (100 ms). A second of lag
     * in a followed log keeps the order through such a stall.
     */
    static final long HOLD_MILLIS = 1000;

    /** One line of the merged log. */
    public record Entry(long millis, String name, String sessionId, byte[] line) {
        public Instant time() {
            return Instant.ofEpochMilli(millis);
        }

        /** The line as text (bytes that are not UTF-8 become U+FFFD). */
        public String text() {
            return new String(line, StandardCharsets.UTF_8);
        }
    }

    private final Path file;
    private final Set<String> names;
    private final long sinceMillis;
    private final Map<String, Run> runs = new HashMap<>();

    /**
     * @param file the workspace file whose sessions are read
     * @param names the commands to read; empty: all of them
     * @param sinceMillis lines written before this (epoch millis) are skipped; 0: none
     */
    public StackLog(Path file, Set<String> names, long sinceMillis) {
        this.file = file.toAbsolutePath().normalize();
        this.names = Set.copyOf(names);
        this.sinceMillis = sinceMillis;
    }

    /** A command's colour, 0 to {@link #COLOURS} - 1: the same for the same name, in every log and window. */
    public static int colourOf(String name) {
        int h = 0;
        for (int i = 0; i < name.length(); i++) {
            h = 31 * h + name.charAt(i); // String.hashCode spelt out: the colour is part of what people learn
        }
        return Math.floorMod(h, COLOURS);
    }

    /** Whether {@code s} is a run of this log: started from its file, of a selected command. */
    public boolean includes(SessionSnapshot s) {
        if (s.stackName() == null || s.stackFile() == null || !names.isEmpty() && !names.contains(s.stackName())) {
            return false;
        }
        try {
            return Path.of(s.stackFile()).toAbsolutePath().normalize().equals(file);
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
    }

    /** Whether every run of this log among {@code sessions} has ended (none waits, none runs). */
    public boolean allEnded(Collection<SessionSnapshot> sessions) {
        return sessions.stream().filter(this::includes).allMatch(s -> s.status().isTerminal());
    }

    /**
     * Hands {@code out} every line readable now and not handed out before, in time order (ties: the
     * run that started first, then the order in its output). {@code sessions} are the data dir's
     * sessions as they are now; those of other stacks are left alone. Returns how many lines it gave.
     */
    public int drain(Collection<SessionSnapshot> sessions, Consumer<Entry> out) throws IOException {
        return drain(sessions, out, Long.MAX_VALUE);
    }

    /**
     * As {@link #drain(Collection, Consumer)} for a reader that comes back (a follower): while any run
     * of the log still runs, lines written in the last {@link #HOLD_MILLIS} ms wait for the next call,
     * so a line another run wrote just before them, whose index entry may not be on disk yet, still
     * comes first. Once every run has ended, everything is given.
     */
    public int drainSettled(Collection<SessionSnapshot> sessions, Consumer<Entry> out) throws IOException {
        long horizon = System.currentTimeMillis() - HOLD_MILLIS; // before any index is read
        return drain(sessions, out, allEnded(sessions) ? Long.MAX_VALUE : horizon);
    }

    private int drain(Collection<SessionSnapshot> sessions, Consumer<Entry> out, long horizon) throws IOException {
        PriorityQueue<Run> heads = new PriorityQueue<>(Comparator.comparingLong((Run r) -> r.head.millis())
                .thenComparing(r -> r.startedAt).thenComparing(r -> r.sessionId).thenComparingLong(r -> r.head.offset()));
        for (SessionSnapshot s : sessions) {
            if (!includes(s) || s.rawOutput() == null || s.status().isWaiting() && s.startedAt() == null) {
                continue;
            }
            Run run = runs.computeIfAbsent(s.sessionId(), id -> new Run(id, s.stackName(),
                    s.startedAt() == null ? Instant.EPOCH : s.startedAt(), Path.of(s.rawOutput())));
            run.ended = s.status().isTerminal();
            run.lines.moveTo(Path.of(s.rawOutput()));
            if (run.advance()) {
                heads.add(run);
            }
        }
        int given = 0;
        while (!heads.isEmpty() && heads.peek().head.millis() <= horizon) {
            Run run = heads.poll();
            TimedLines.Line line = run.lines.take();
            if (line.millis() >= sinceMillis) {
                out.accept(new Entry(line.millis(), run.name, run.sessionId, line.bytes()));
                given++;
            }
            if (run.advance()) {
                heads.add(run);
            }
        }
        return given;
    }

    /** The names a log of {@code names} shows, in the file's order: all of {@code known} when none is named. */
    public static List<String> shown(Collection<String> known, Collection<String> names) {
        return names.isEmpty() ? List.copyOf(known) : known.stream().filter(names::contains).toList();
    }

    /** One run's cursor and what orders it among the others. */
    private static final class Run {
        final String sessionId;
        final String name;
        final Instant startedAt;
        final TimedLines lines;
        boolean ended;
        TimedLines.Line head;

        Run(String sessionId, String name, Instant startedAt, Path output) {
            this.sessionId = sessionId;
            this.name = name;
            this.startedAt = startedAt;
            this.lines = new TimedLines(output);
        }

        /** Loads the next line into {@link #head}; false when none is readable now. */
        boolean advance() throws IOException {
            head = lines.peek(ended);
            return head != null;
        }
    }
}
