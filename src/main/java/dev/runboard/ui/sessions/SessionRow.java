package dev.runboard.ui.sessions;


import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.ui.ansi.AnsiParser;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The view-model of one table row: live properties the cells bind to, fed only by
 * {@link #apply(SessionSnapshot, Instant, boolean)} on the FX thread. The engine's session stays
 * the source of truth; this is its latest picture, with the spec it was started from and its id
 * (what the window's commands name it by).
 */
public final class SessionRow {
    private final String id;
    private final SessionSpec spec;
    private final ReadOnlyObjectWrapper<SessionSnapshot> snapshot = new ReadOnlyObjectWrapper<>(this, "snapshot");
    private final ReadOnlyObjectWrapper<SessionStatus> status = new ReadOnlyObjectWrapper<>(this, "status");
    private final ReadOnlyStringWrapper command = new ReadOnlyStringWrapper(this, "command");
    private final ReadOnlyStringWrapper cwd = new ReadOnlyStringWrapper(this, "cwd");
    /** Where a remote session runs, with its link while it runs; null when local. */
    private final ReadOnlyObjectWrapper<Remote> remote = new ReadOnlyObjectWrapper<>(this, "remote");

    /**
     * A remote session's host and, while it runs, its connection ({@code connected}, {@code
     * disconnected}, as the CLI says it); sorted by host.
     */
    public record Remote(String host, String connection) implements Comparable<Remote> {
        @Override
        public int compareTo(Remote o) {
            int byHost = host.compareTo(o.host);
            return byHost != 0 ? byHost : String.valueOf(connection).compareTo(String.valueOf(o.connection));
        }
    }
    private final ReadOnlyObjectWrapper<Instant> startedAt = new ReadOnlyObjectWrapper<>(this, "startedAt");
    private final ReadOnlyObjectWrapper<Duration> elapsed = new ReadOnlyObjectWrapper<>(this, "elapsed", Duration.ZERO);
    private final ReadOnlyStringWrapper exit = new ReadOnlyStringWrapper(this, "exit", "");
    private final ReadOnlyObjectWrapper<Long> outputBytes = new ReadOnlyObjectWrapper<>(this, "outputBytes", 0L);
    private final ReadOnlyStringWrapper lastLine = new ReadOnlyStringWrapper(this, "lastLine", "");
    private final ReadOnlyObjectWrapper<SessionInsight> insight = new ReadOnlyObjectWrapper<>(this, "insight");
    private final ReadOnlyObjectWrapper<Double> cpuPercent = new ReadOnlyObjectWrapper<>(this, "cpuPercent");
    private final ReadOnlyObjectWrapper<Long> rssBytes = new ReadOnlyObjectWrapper<>(this, "rssBytes");
    private final ReadOnlyBooleanWrapper paused = new ReadOnlyBooleanWrapper(this, "paused");
    /** The session has ended but its wrapper still holds processes the command left behind (Kill ends them). */
    private final ReadOnlyBooleanWrapper lingering = new ReadOnlyBooleanWrapper(this, "lingering");
    /**
     * Bumped by {@link #touch()} when a change matters to the table's order or filter: the list
     * extractor watches it. Not bumped per snapshot: each list update event makes the table rebuild
     * its cells, which under 20 flooding sessions cost the FX thread most of its time.
     */
    private final ReadOnlyIntegerWrapper revision = new ReadOnlyIntegerWrapper(this, "revision");
    /** The sequence number of the last insight event handed to listeners (FX thread). */
    private long lastEventSeq;

    /** What {@link #apply} and {@link #applyInsight} report as changed, as bits (the status is watched directly). */
    public static final int LAST_LINE_CHANGED = 1;
    /** Elapsed, output size, CPU or RSS changed. */
    public static final int COUNTERS_CHANGED = 2;

    public SessionRow(SessionSpec spec, SessionSnapshot first) {
        this.id = Objects.requireNonNull(first.sessionId());
        this.spec = Objects.requireNonNull(spec);
        command.set(first.command());
        cwd.set(first.cwd());
        apply(first, first.startedAt() == null ? Instant.now() : first.startedAt().plus(first.elapsed()), true);
    }

    /** The spec the session was started from (rerun, its grace, its output rules). */
    public SessionSpec spec() {
        return spec;
    }

    public String id() {
        return id;
    }

    /**
     * Copies a snapshot into the properties; for a running session, elapsed is derived from the
     * shared tick {@code now}. The values that change all the time while running (elapsed, output
     * size, last line) are copied only when {@code liveValues} is set, or when the status changed,
     * so a flood repaints its row's cells once per refresh, not once per poll; the snapshot
     * itself (the detail pane's source) is always current. Returns what changed
     * ({@link #LAST_LINE_CHANGED}, {@link #COUNTERS_CHANGED}).
     */
    public int apply(SessionSnapshot s, Instant now, boolean liveValues) {
        lingering.set(!s.lingering().isEmpty());
        // At once, as the CLI says it: an outage is not a value to batch with the counters.
        update(remote, s.host() == null ? null : new Remote(s.host(), s.connection()));
        if (!liveValues && s.status() == status.get()) {
            snapshot.set(s);
            return 0;
        }
        Duration elapsedBefore = elapsed.get();
        long bytesBefore = outputBytes.get();
        String lastLineBefore = lastLine.get();
        status.set(s.status());
        update(startedAt, s.startedAt());
        update(elapsed, s.isRunning() ? runningElapsed(s, now) : s.elapsed());
        exit.set(exitText(s));
        update(outputBytes, s.outputBytes());
        lastLine.set(s.status().isWaiting() && s.reason() != null && (s.lastLine() == null || s.lastLine().isEmpty())
                ? s.reason() // "waiting for db", "queued in builds: 2 of 2 running": said in the row, not only in Facts
                : asDrawn(s.lastLine()));
        snapshot.set(s); // last, so snapshot listeners see the other properties already current
        return (Objects.equals(lastLineBefore, lastLine.get()) ? 0 : LAST_LINE_CHANGED)
                | (elapsedBefore.equals(elapsed.get()) && bytesBefore == s.outputBytes() ? 0 : COUNTERS_CHANGED);
    }

    /** Tells the list this row may have moved in the table's order or filter. */
    public void touch() {
        revision.set(revision.get() + 1);
    }

    /**
     * Copies the monitor's latest insight (FX thread). CPU shows while running; RSS shows the
     * current value while running and the peak once ended. Null (no insight yet) changes nothing.
     * The paused state follows at once; CPU, RSS and the insight itself (the tree and charts) only
     * when {@code values} is set, with the row's other once-a-second values, so the table and the
     * insight pane refresh in one go rather than twice a second. Returns {@link #COUNTERS_CHANGED}
     * when CPU or RSS changed, else 0.
     */
    public int applyInsight(SessionInsight i, boolean values) {
        if (i == null) {
            return 0;
        }
        boolean running = isRunning();
        paused.set(running && i.paused());
        if (!values && running) {
            return 0;
        }
        Double cpuBefore = cpuPercent.get();
        Long rssBefore = rssBytes.get();
        update(cpuPercent, running && i.sampledAt() != null ? i.cpuPercent() : null);
        update(rssBytes, running ? (i.sampledAt() == null ? null : i.rssBytes()) : (i.peakRssBytes() > 0 ? i.peakRssBytes() : null));
        insight.set(i);
        return Objects.equals(cpuBefore, cpuPercent.get()) && Objects.equals(rssBefore, rssBytes.get()) ? 0 : COUNTERS_CHANGED;
    }

    /** The events of {@code i} this row has not handed out yet (events carry increasing sequence numbers). FX thread. */
    public List<SessionInsight.Event> takeNewEvents(SessionInsight i) {
        if (i == null || i.events().isEmpty()) {
            return List.of();
        }
        long seen = lastEventSeq;
        List<SessionInsight.Event> fresh = i.events().stream().filter(e -> e.seq() > seen).toList();
        if (!fresh.isEmpty()) {
            lastEventSeq = fresh.get(fresh.size() - 1).seq();
        }
        return fresh;
    }

    public ReadOnlyObjectProperty<SessionInsight> insightProperty() {
        return insight.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Double> cpuPercentProperty() {
        return cpuPercent.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Long> rssBytesProperty() {
        return rssBytes.getReadOnlyProperty();
    }

    /** Every process of the tree is stopped (SIGSTOP). */
    public ReadOnlyBooleanProperty pausedProperty() {
        return paused.getReadOnlyProperty();
    }

    /**
     * A running session's elapsed time in whole seconds: the cell then changes once a second, not
     * on every poll (a repaint per row per poll is what a busy machine cannot spare). The final
     * elapsed, once ended, keeps its precision.
     */
    private static Duration runningElapsed(SessionSnapshot s, Instant now) {
        return s.startedAt() == null ? s.elapsed() : Duration.ofSeconds(nonNegative(Duration.between(s.startedAt(), now)).getSeconds());
    }

    /**
     * Sets only a value that differs: object properties compare by reference, so a fresh but
     * equal boxed number or Duration would otherwise invalidate the cell bound to it every poll.
     */
    private static <T> void update(ReadOnlyObjectWrapper<T> property, T value) {
        if (!Objects.equals(property.get(), value)) {
            property.set(value);
        }
    }

    static String exitText(SessionSnapshot s) {
        if (s.signal() != null) {
            return "SIG" + s.signal();
        }
        return s.exitCode() == null ? "" : String.valueOf(s.exitCode());
    }

    private static Duration nonNegative(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }

    public boolean isRunning() {
        return status.get().isLive();
    }

    /** Ended, with processes the command left behind still held by its wrapper. */
    public boolean isLingering() {
        return lingering.get();
    }

    public ReadOnlyBooleanProperty lingeringProperty() {
        return lingering.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<SessionSnapshot> snapshotProperty() {
        return snapshot.getReadOnlyProperty();
    }

    public SessionSnapshot snapshot() {
        return snapshot.get();
    }

    public ReadOnlyObjectProperty<SessionStatus> statusProperty() {
        return status.getReadOnlyProperty();
    }

    public SessionStatus status() {
        return status.get();
    }

    public ReadOnlyStringProperty commandProperty() {
        return command.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty cwdProperty() {
        return cwd.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Remote> remoteProperty() {
        return remote.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Instant> startedAtProperty() {
        return startedAt.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Duration> elapsedProperty() {
        return elapsed.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty exitProperty() {
        return exit.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Long> outputBytesProperty() {
        return outputBytes.getReadOnlyProperty();
    }

    /**
     * A line as a terminal leaves it, drawn as the tail pane draws it (the same {@link AnsiParser}): a
     * carriage return moves back to the line's start and later text overwrites what is there
     * ("abcdef\rXY" reads "XYcdef"; a progress bar its latest state, not all of them stacked); a
     * backspace moves one back. Lines without either are taken as they are.
     */
    static String asDrawn(String line) {
        if (line == null || line.indexOf('\r') < 0 && line.indexOf('\b') < 0) {
            return line;
        }
        return new AnsiParser().parseLine(line).plain();
    }

    public ReadOnlyStringProperty lastLineProperty() {
        return lastLine.getReadOnlyProperty();
    }

    public ReadOnlyIntegerProperty revisionProperty() {
        return revision.getReadOnlyProperty();
    }
}
