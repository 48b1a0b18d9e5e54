package dev.runboard.ui.main;

import dev.runboard.session.Signal;
import dev.runboard.ui.insight.SessionControl;
import dev.runboard.ui.sessions.SessionRow;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Kill, Signal, Rerun and Remove on every selected row at once (the table allows many): killing 30
 * of 60 sessions is one selection and one Ctrl+K. The enabled states follow the selected rows'
 * real statuses, so they stay right when a session ends or the filter hides a row. FX thread.
 */
public final class SelectionActions {
    private final MainViewModel model;
    private final SessionControl control;
    /** The table's selection; re-evaluated whenever a selected row's status changes. */
    private final ObservableList<SessionRow> chosen =
            FXCollections.observableArrayList(r -> new Observable[] {r.statusProperty(), r.lingeringProperty()});
    private final BooleanBinding anyRunning = Bindings.createBooleanBinding(
            () -> chosen.stream().anyMatch(SessionRow::isRunning), chosen);
    private final BooleanBinding anyFinished = Bindings.createBooleanBinding(
            () -> chosen.stream().anyMatch(r -> !r.isRunning()), chosen);
    /** Running, waiting (a kill cancels it), or ended with processes left behind. */
    private final BooleanBinding anyKillable = Bindings.createBooleanBinding(
            () -> chosen.stream().anyMatch(SelectionActions::killable), chosen);

    public SelectionActions(MainViewModel model, SessionControl control) {
        this.model = model;
        this.control = control;
    }

    public ObservableList<SessionRow> chosen() {
        return chosen;
    }

    public BooleanBinding anyRunning() {
        return anyRunning;
    }

    public BooleanBinding anyFinished() {
        return anyFinished;
    }

    public BooleanBinding anyKillable() {
        return anyKillable;
    }

    private static boolean killable(SessionRow r) {
        return r.isRunning() || r.status().isWaiting() || r.isLingering();
    }

    private List<SessionRow> running() {
        return chosen.stream().filter(SessionRow::isRunning).toList();
    }

    /** {@code signal} to every selected running session's tree; TERM, INT and HUP escalate to KILL after each one's grace. */
    public void kill(Signal signal) {
        List<SessionRow> rows = chosen.stream().filter(SelectionActions::killable).toList();
        if (rows.size() == 1) {
            model.kill(rows.get(0), signal);
            return;
        }
        if (rows.isEmpty()) {
            return;
        }
        model.say("Sending " + signal + " to " + rows.size() + " sessions\u2026");
        AtomicInteger survivors = new AtomicInteger();
        CompletableFuture<?>[] kills = rows.stream().map(r -> model.kill(r, signal,
                signal == Signal.KILL ? Duration.ZERO : r.spec().grace())
                .thenAccept(report -> survivors.addAndGet(report.survivors().size()))).toArray(CompletableFuture[]::new);
        model.tasks().onFx(CompletableFuture.allOf(kills), (done, error) -> model.say(error != null
                ? "Kill failed: " + error.getMessage()
                : "Killed " + rows.size() + " sessions: " + survivors.get() + " survivors"));
    }

    /** One signal to each selected running session's group, no escalation. */
    public void signal(Signal signal) {
        running().forEach(r -> control.signal(r, signal));
    }

    /** Starts each selected session's command again. */
    public void rerun() {
        List.copyOf(chosen).forEach(r -> model.start(r.spec()));
    }

    /** The running sessions that run the same command (same spec) as a selected row: what a rerun would duplicate. */
    public List<SessionRow> runningDuplicates() {
        java.util.Set<dev.runboard.session.SessionSpec> specs = new java.util.HashSet<>();
        chosen.forEach(r -> specs.add(r.spec()));
        return model.sessions().rows().stream().filter(r -> r.isRunning() && specs.contains(r.spec())).toList();
    }

    /** Kills the running copies of the selected commands, then starts each command again once they have ended. */
    public void restart() {
        List<SessionRow> again = List.copyOf(chosen);
        CompletableFuture<?>[] kills = runningDuplicates().stream()
                .map(r -> model.kill(r, Signal.TERM, r.spec().grace())).toArray(CompletableFuture[]::new);
        model.say("Restarting…");
        model.tasks().onFx(CompletableFuture.allOf(kills), (done, error) -> {
            if (error != null) {
                model.say("Restart failed: " + error.getMessage());
            } else {
                again.stream().map(SessionRow::spec).distinct().forEach(model::start);
            }
        });
    }

    /** Removes the selected finished (and waiting: cancelled) sessions and their files, with Undo. */
    public void remove() {
        model.removals().remove(List.copyOf(chosen));
    }

    /** Removes every finished session and its output, with Undo. */
    public void clearFinished() {
        model.clearFinished();
    }
}
