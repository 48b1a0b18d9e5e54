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
        final boolean withArtifacts;
        PauseTransition timer;

        Batch(List<SessionRow> rows, boolean withArtifacts) {
            this.rows = rows;
            this.withArtifacts = withArtifacts;
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

    /** Takes finished rows off the table now and out of the store (with their output files when asked) after the undo window. */
    public void remove(List<SessionRow> rows, boolean withArtifacts) {
        List<SessionRow> finished = rows.stream().filter(r -> !r.isRunning()).toList();
        if (finished.isEmpty()) {
            return;
        }
        Batch batch = new Batch(finished, withArtifacts);
        finished.forEach(sessions::remove);
        pending.add(batch);
        String text = describe(finished, withArtifacts);
        say.accept(text);
        offer.offer(text, () -> undo(batch), window);
        batch.timer = new PauseTransition(window);
        batch.timer.setOnFinished(e -> commit(batch));
        batch.timer.play();
    }

    private String describe(List<SessionRow> rows, boolean withArtifacts) {
        long bytes = rows.stream().mapToLong(r -> r.outputBytesProperty().get() == null ? 0 : r.outputBytesProperty().get()).sum();
        String what = rows.size() == 1 ? rows.get(0).commandProperty().get() : rows.size() + " sessions";
        if (withArtifacts) {
            return "Removed " + what + "; " + dev.runboard.ui.common.Formats.bytes(bytes) + " of output will be deleted in "
                    + seconds() + " s";
        }
        String where = outputFileOf(rows.get(0)).map(p -> p.getParent().toString())
                .orElse(engine.dataDir().toAbsolutePath().toString());
        return "Removed " + what + " from the list; the output stays in " + where;
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
        for (SessionRow row : batch.rows) {
            sessions.add(row.spec(), row.snapshot());
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
                engine.remove(id, batch.withArtifacts);
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
                    engine.remove(row.id(), batch.withArtifacts);
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
