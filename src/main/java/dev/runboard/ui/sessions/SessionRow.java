package dev.runboard.ui.sessions;

import dev.runboard.process.SessionInsight;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import java.time.Duration;
import java.time.Instant;
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
 * {@link #apply(SessionSnapshot, Instant)} on the FX thread. The engine's {@link Session} stays
 * the source of truth; this is its latest picture.
 */
public final class SessionRow {
    private final Session session;
    private final ReadOnlyObjectWrapper<SessionSnapshot> snapshot = new ReadOnlyObjectWrapper<>(this, "snapshot");
    private final ReadOnlyObjectWrapper<SessionStatus> status = new ReadOnlyObjectWrapper<>(this, "status");
    private final ReadOnlyStringWrapper command = new ReadOnlyStringWrapper(this, "command");
    private final ReadOnlyStringWrapper cwd = new ReadOnlyStringWrapper(this, "cwd");
    private final ReadOnlyObjectWrapper<Instant> startedAt = new ReadOnlyObjectWrapper<>(this, "startedAt");
    private final ReadOnlyObjectWrapper<Duration> elapsed = new ReadOnlyObjectWrapper<>(this, "elapsed", Duration.ZERO);
    private final ReadOnlyStringWrapper exit = new ReadOnlyStringWrapper(this, "exit", "");
    private final ReadOnlyObjectWrapper<Long> outputBytes = new ReadOnlyObjectWrapper<>(this, "outputBytes", 0L);
    private final ReadOnlyStringWrapper lastLine = new ReadOnlyStringWrapper(this, "lastLine", "");
    private final ReadOnlyObjectWrapper<SessionInsight> insight = new ReadOnlyObjectWrapper<>(this, "insight");
    private final ReadOnlyObjectWrapper<Double> cpuPercent = new ReadOnlyObjectWrapper<>(this, "cpuPercent");
    private final ReadOnlyObjectWrapper<Long> rssBytes = new ReadOnlyObjectWrapper<>(this, "rssBytes");
    private final ReadOnlyBooleanWrapper paused = new ReadOnlyBooleanWrapper(this, "paused");
    /** Bumped once per applied snapshot: the list extractor watches it so sort and filter follow every change in one event. */
    private final ReadOnlyIntegerWrapper revision = new ReadOnlyIntegerWrapper(this, "revision");

    public SessionRow(Session session, SessionSnapshot first) {
        this.session = Objects.requireNonNull(session);
        command.set(first.command());
        cwd.set(first.cwd());
        apply(first, first.startedAt() == null ? Instant.now() : first.startedAt().plus(first.elapsed()));
    }

    public Session session() {
        return session;
    }

    public String id() {
        return session.id();
    }

    /** Copies a snapshot into the properties; for a running session, elapsed is derived from the shared tick {@code now}. */
    public void apply(SessionSnapshot s, Instant now) {
        status.set(s.status());
        startedAt.set(s.startedAt());
        elapsed.set(s.isRunning() && s.startedAt() != null ? nonNegative(Duration.between(s.startedAt(), now)) : s.elapsed());
        exit.set(exitText(s));
        outputBytes.set(s.outputBytes());
        lastLine.set(s.lastLine());
        snapshot.set(s); // last, so snapshot listeners see the other properties already current
        revision.set(revision.get() + 1);
    }

    /**
     * Copies the monitor's latest insight (FX thread). CPU shows while running; RSS shows the
     * current value while running and the peak once ended. Null (no insight yet) changes nothing.
     */
    public void applyInsight(SessionInsight i) {
        if (i == null) {
            return;
        }
        boolean running = isRunning();
        cpuPercent.set(running && i.sampledAt() != null ? i.cpuPercent() : null);
        rssBytes.set(running ? (i.sampledAt() == null ? null : i.rssBytes()) : (i.peakRssBytes() > 0 ? i.peakRssBytes() : null));
        paused.set(running && i.paused());
        insight.set(i);
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

    /** Advances elapsed to the shared tick without a new snapshot (a running row between polls). */
    void tick(Instant now) {
        SessionSnapshot s = snapshot.get();
        if (s != null && s.isRunning() && s.startedAt() != null) {
            elapsed.set(nonNegative(Duration.between(s.startedAt(), now)));
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
        return status.get() == SessionStatus.RUNNING;
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

    public ReadOnlyStringProperty lastLineProperty() {
        return lastLine.getReadOnlyProperty();
    }

    public ReadOnlyIntegerProperty revisionProperty() {
        return revision.getReadOnlyProperty();
    }
}
