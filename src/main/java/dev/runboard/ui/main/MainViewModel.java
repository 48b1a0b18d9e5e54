package dev.runboard.ui.main;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.KillReport;
import dev.runboard.session.SessionService;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.ui.common.DesktopBridge;
import dev.runboard.ui.common.Formats;
import dev.runboard.ui.common.SerialTasks;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.ui.sessions.SessionsViewModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.value.ChangeListener;

/**
 * What the main window can do, on the selected session: kill, rerun, remove, copy, open its
 * folder; plus the status bar's words. The controller only binds controls to this.
 * Called on the FX thread; every engine command runs through {@link UiTasks#background} (a start
 * may wait seconds for the supervisor) and its outcome is applied back on the FX thread.
 */
public final class MainViewModel {
    private final SessionService engine;
    private final SessionsViewModel sessions;
    private final DesktopBridge desktop;
    private final UiTasks tasks;
    /** Starts go one after another, so rows appear in the order they were asked for. */
    private final SerialTasks starts;
    private final ObjectProperty<SessionRow> selected = new SimpleObjectProperty<>(this, "selected");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final BooleanBinding noSelection = selected.isNull();
    private final ObjectProperty<SessionStatus> selectedStatus = new SimpleObjectProperty<>(this, "selectedStatus");
    private final BooleanBinding selectedRunning;
    /** The selected session ended, but its wrapper holds processes it left behind. */
    private final javafx.beans.property.BooleanProperty selectedLingering = new javafx.beans.property.SimpleBooleanProperty(this, "selectedLingering");
    private final BooleanBinding selectedKillable;
    private final PendingRemovals removals;

    public MainViewModel(SessionService engine, SessionsViewModel sessions, DesktopBridge desktop, UiTasks tasks) {
        this.engine = engine;
        this.sessions = sessions;
        this.desktop = desktop;
        this.tasks = tasks;
        this.starts = new SerialTasks(tasks);
        // Follows the selected row's status, not only the selection.
        ChangeListener<SessionStatus> statusChanged = (o, was, now) -> selectedStatus.set(now);
        ChangeListener<Boolean> lingeringChanged = (o, was, now) -> selectedLingering.set(now);
        selected.addListener((o, was, now) -> {
            if (was != null) {
                was.statusProperty().removeListener(statusChanged);
                was.lingeringProperty().removeListener(lingeringChanged);
            }
            if (now != null) {
                now.statusProperty().addListener(statusChanged);
                now.lingeringProperty().addListener(lingeringChanged);
            }
            selectedStatus.set(now == null ? null : now.status());
            selectedLingering.set(now != null && now.isLingering());
        });
        selectedRunning = Bindings.createBooleanBinding(() -> selectedStatus.get() != null && selectedStatus.get().isLive(), selectedStatus);
        // Waiting sessions too: a kill cancels one before it starts.
        selectedKillable = selectedRunning.or(selectedLingering)
                .or(Bindings.createBooleanBinding(() -> selectedStatus.get() != null && selectedStatus.get().isWaiting(), selectedStatus));
        removals = new PendingRemovals(engine, sessions, tasks, message::set);
        // The selected session's output is the one on screen (the detail pane): re-read every poll.
        sessions.poller().setWatched(selected::get);
        engine.limitations().ifPresent(message::set);
    }

    public SessionsViewModel sessions() {
        return sessions;
    }

    public SessionService engine() {
        return engine;
    }

    /** Sends {@code signal} to the selected session's tree; TERM, INT and HUP escalate to KILL after the session's grace. */
    public void kill(Signal signal) {
        kill(selected.get(), signal);
    }

    /** As above for one row, the selected one or not. */
    public void kill(SessionRow row, Signal signal) {
        if (row == null || !row.isRunning() && !row.isLingering() && !row.status().isWaiting()) {
            return;
        }
        Duration grace = signal == Signal.KILL ? Duration.ZERO : row.spec().grace();
        message.set("Sending " + signal + " to " + row.commandProperty().get() + "\u2026");
        // One hop per kill, not per event: the row itself learns of the end from the poller.
        tasks.onFx(kill(row, signal, grace), (report, error) -> message.set(error != null
                ? "Kill failed: " + error.getMessage()
                : "Killed " + row.commandProperty().get() + ": " + report.summary()));
    }

    /** Kills a row's tree off the FX thread; the report (or the failure) arrives on a worker thread. */
    public CompletableFuture<KillReport> kill(SessionRow row, Signal signal, Duration grace) {
        String id = row.id();
        return tasks.background(() -> engine.kill(id, signal, grace)).thenCompose(kill -> kill);
    }

    /**
     * Starts the selected session's spec again; the future brings the new row (on the FX thread),
     * or null when nothing was started (the reason is in the status bar).
     */
    public CompletableFuture<SessionRow> rerun() {
        SessionRow row = selected.get();
        return row == null ? CompletableFuture.completedFuture(null) : start(row.spec());
    }

    /**
     * Starts a spec and selects its row; the future brings the row (on the FX thread), or null
     * when nothing was started: an invalid spec (e.g. its cwd is gone) or a failed start ends up
     * in the status bar.
     */
    public CompletableFuture<SessionRow> start(SessionSpec spec) {
        try {
            return launch(spec).exceptionally(error -> null);
        } catch (InvalidSpecException e) {
            message.set("Cannot start: " + e.getMessage());
            return CompletableFuture.completedFuture(null);
        }
    }

    /**
     * Validates the spec here and now (an invalid one throws, and nothing starts: the dialog shows
     * the field's error), then starts it in the background. The future completes on the FX thread
     * once the row is in the list and selected; when the start fails, the status bar says why and
     * the future fails with the reason.
     */
    public CompletableFuture<SessionRow> launch(SessionSpec spec) throws InvalidSpecException {
        spec.validate();
        message.set("Starting " + spec.displayCommand() + "\u2026");
        CompletableFuture<SessionSnapshot> started = starts.background(() -> engine.launch(spec));
        return tasks.applyOnFx(started, (first, error) -> {
            if (error != null) {
                message.set("Cannot start: " + error.getMessage());
                throw new CompletionException(error);
            }
            SessionRow row = sessions.add(spec, first);
            selected.set(row);
            message.set("Started " + spec.displayCommand());
            return row;
        });
    }

    public UiTasks tasks() {
        return tasks;
    }

    /** Removals waiting for their undo window. */
    public PendingRemovals removals() {
        return removals;
    }

    /** Removes the selected finished session from the list and the history (a running one must be killed first), with Undo. */
    public void remove() {
        SessionRow row = selected.get();
        if (row == null || row.isRunning()) {
            return;
        }
        removals.remove(java.util.List.of(row));
    }

    /** Removes every finished session and its artifact, with Undo; running sessions stay. */
    public void clearFinished() {
        java.util.List<SessionRow> finished = sessions.rows().stream().filter(r -> r.status().isTerminal()).toList();
        if (finished.isEmpty()) {
            message.set("No finished sessions to clear");
        } else {
            removals.remove(finished);
        }
    }

    /** Shows a problem in the status bar (FX thread). */
    public void warn(String problem) {
        message.set("\u26A0 " + problem);
    }

    public void copyCommand() {
        SessionRow row = selected.get();
        if (row != null) {
            desktop.copy(row.commandProperty().get());
            message.set("Copied the command");
        }
    }

    public void openCwd() {
        SessionRow row = selected.get();
        if (row != null) {
            desktop.open(Path.of(row.cwdProperty().get()));
        }
    }

    public void open(Path fileOrFolder) {
        desktop.open(fileOrFolder);
    }

    public void copy(String text) {
        desktop.copy(text);
    }

    public void say(String text) {
        message.set(text);
    }

    public StringBinding countsText() {
        return Bindings.createStringBinding(() -> sessions.runningCountProperty().get() + " running / "
                + sessions.rows().size() + " total", sessions.runningCountProperty(), sessions.rows());
    }

    public StringBinding diskText() {
        return Bindings.createStringBinding(() -> Formats.bytes(sessions.bytesOnDiskProperty().get()) + " of output on disk",
                sessions.bytesOnDiskProperty());
    }

    public ObjectProperty<SessionRow> selectedProperty() {
        return selected;
    }

    public BooleanBinding noSelection() {
        return noSelection;
    }

    public BooleanBinding selectedRunning() {
        return selectedRunning;
    }

    /** Running, or ended with processes left behind that Kill still ends. */
    public BooleanBinding selectedKillable() {
        return selectedKillable;
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }
}
