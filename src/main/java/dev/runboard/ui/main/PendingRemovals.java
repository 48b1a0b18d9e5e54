package dev.runboard.ui.main;

import dev.runboard.session.SessionService;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.ui.sessions.SessionsViewModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.animation.PauseTransition;
import javafx.util.Duration;

/**
 * Removal with a way back: rows leave the table at once, but the store and the files are touched
 * only when the undo window has passed with no Undo. One click on "Clear finished" once deleted
 * 250 MB of output for good; now it says what it will delete and waits. Closing the window
 * carries out what is pending. FX thread only.
 */
public final class PendingRemovals {
    public static final Duration UNDO_WINDOW = Duration.seconds(10);

    /** Shows {@code text} with an Undo button for {@code window}; Undo runs {@code undo}. */
    public interface UndoOffer {
        void offer(String text, Runnable undo, Duration window);
    }

    private final SessionService engine;
    private final SessionsViewModel sessions;
    private final UiTasks tasks;
    private final Consumer<String> say;
    private final List<Batch> pending = new ArrayList<>();
    private UndoOffer offer = (text, undo, window) -> { };
    private Duration window = UNDO_WINDOW;

    private static final class Batch {
        final List<SessionRow> rows;
        /** Where each row stood in the list (started order), ascending: Undo puts them back there. */
        final List<Integer> positions;
        PauseTransition timer;

        Batch(List<SessionRow> rows, List<Integer> positions) {
            this.rows = rows;
            this.positions = positions;
        }
    }

    public PendingRemovals(SessionService engine, SessionsViewModel sessions, UiTasks tasks, Consumer<String> say) {
        this.engine = engine;
        this.sessions = sessions;
        this.tasks = tasks;
        this.say = say;
    }

    public void setUndoOffer(UndoOffer offer) {
        this.offer = offer;
    }

    /** How long Undo is offered (tests shorten it). */
    public void setWindow(Duration window) {
        this.window = window;
    }

    /**
     * Takes finished and waiting rows off the table now, and deletes their sessions and every file of
     * them (record, capture, artifact) once the undo window has passed: the one meaning of Remove, as
     * the CLI's. A waiting one is cancelled at once (it ends killed, "cancelled before it started"), so
     * it cannot start later unseen. Running ones are left alone (kill them first).
     */
    public void remove(List<SessionRow> rows) {
        List<SessionRow> chosen = rows.stream().filter(r -> !r.isRunning()).toList();
        if (chosen.isEmpty()) {
            return;
        }
        List<SessionRow> waiting = chosen.stream().filter(r -> r.status().isWaiting()).toList();
        for (SessionRow r : waiting) {
            tasks.onFx(tasks.background(() -> engine.kill(r.id(), dev.runboard.session.Signal.TERM, java.time.Duration.ZERO))
                    .thenCompose(kill -> kill), (report, error) -> {
                        if (error != null) {
                            say.accept("\u26A0 Could not cancel " + r.commandProperty().get() + ": " + error.getMessage());
                        }
                    });
        }
        List<SessionRow> inOrder = chosen.stream()
                .sorted(java.util.Comparator.comparingInt(r -> sessions.rows().indexOf(r))).toList();
        Batch batch = new Batch(inOrder, inOrder.stream().map(r -> sessions.rows().indexOf(r)).toList());
        chosen.forEach(sessions::remove);
        pending.add(batch);
        String text = describe(chosen, waiting.size());
        say.accept(text);
        offer.offer(text, () -> undo(batch), window);
        batch.timer = new PauseTransition(window);
        batch.timer.setOnFinished(e -> commit(batch));
        batch.timer.play();
    }

    private String describe(List<SessionRow> rows, int cancelled) {
        long bytes = rows.stream().mapToLong(r -> r.outputBytesProperty().get() == null ? 0 : r.outputBytesProperty().get()).sum();
        String what = rows.size() == 1 ? "1 session (" + rows.get(0).commandProperty().get() + ")" : rows.size() + " sessions";
        return "Removed " + what + "; " + dev.runboard.ui.common.Formats.bytes(bytes) + " of output will be deleted in "
                + seconds() + " s" + (cancelled == 0 ? "" : cancelled == 1 ? "; 1 waiting session was cancelled"
                : "; " + cancelled + " waiting sessions were cancelled");
    }

    /** The session's output file: the artifact once it outgrew the preview, else the kept capture. */
    public static java.util.Optional<Path> outputFileOf(SessionRow row) {
        String artifact = row.snapshot().artifact();
        String capture = row.snapshot().captureFile();
        return java.util.Optional.ofNullable(artifact != null ? artifact : capture).map(Path::of);
    }

    private long seconds() {
        return Math.round(window.toSeconds());
    }

    private void undo(Batch batch) {
        if (!pending.remove(batch)) {
            return;
        }
        batch.timer.stop();
        for (int i = 0; i < batch.rows.size(); i++) { // ascending: each goes back before the ones after it
            SessionRow row = batch.rows.get(i);
            sessions.restore(row.spec(), row.snapshot(), batch.positions.get(i));
        }
        say.accept("Restored " + (batch.rows.size() == 1 ? batch.rows.get(0).commandProperty().get() : batch.rows.size() + " sessions"));
    }

    private void commit(Batch batch) {
        if (!pending.remove(batch)) {
            return;
        }
        List<String> ids = batch.rows.stream().map(SessionRow::id).toList();
        tasks.onFx(tasks.background(() -> {
            for (String id : ids) {
                engine.remove(id, true);
            }
            return null;
        }), (done, error) -> {
            if (error != null) {
                say.accept("\u26A0 Could not remove every session: " + error.getMessage());
            }
        });
    }

    /** Carries out every pending removal now, on this thread (the window is closing). */
    public void commitAll() {
        for (Batch batch : List.copyOf(pending)) {
            batch.timer.stop();
            pending.remove(batch);
            for (SessionRow row : batch.rows) {
                try {
                    engine.remove(row.id(), true);
                } catch (java.io.IOException | RuntimeException e) {
                    // the window is going away; the history keeps the session, which is the safe side
                }
            }
        }
    }

    /** How many removals still wait for their undo window (tests). */
    public int pendingCount() {
        return pending.size();
    }
}
