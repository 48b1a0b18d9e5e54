package dev.runboard.ui.viewer;

import dev.runboard.artifact.FileSearch;
import dev.runboard.artifact.ViewerLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.regex.PatternSyntaxException;
import javafx.concurrent.Task;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;

/**
 * The viewer's search bar: Enter runs a {@link FileSearch} over the whole file on a background
 * task (progress and a running count on the bar, Cancel or Escape to stop it), then steps
 * through its matches ("n of N"), the current one highlighted in the list and its page shown.
 * Everything here runs on the FX thread: the task reaches the bar only through its coalesced
 * progress and message properties and hands its finished, immutable result over once.
 */
final class MatchNavigator {
    /** The nodes the search drives: the bar's controls and the list whose cells show the hits. */
    record Controls(TextField query, ToggleButton matchCase, Label matches, ProgressBar progress, Button cancel,
                    ListView<ViewerLine> lines) {
    }

    private final Path file;
    private final Controls ui;
    private final BooleanSupplier fileOpen;
    private final LongSupplier shownFrom;
    private final LongConsumer reveal;
    private Task<FileSearch.Result> search;
    private FileSearch.Query searched;
    private ViewerLineCell.Highlight highlight;

    /**
     * @param fileOpen true once the viewer has opened the file (no search before)
     * @param shownFrom byte offset of the shown page's first line, 0 before any page: a new search
     *     starts at the first match at or after it
     * @param reveal leaves follow mode and shows the page around a match's byte offset
     */
    MatchNavigator(Path file, Controls ui, BooleanSupplier fileOpen, LongSupplier shownFrom, LongConsumer reveal) {
        this.file = file;
        this.ui = ui;
        this.fileOpen = fileOpen;
        this.shownFrom = shownFrom;
        this.reveal = reveal;
        ui.query().setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                findOrStep(e.isShiftDown());
            } else if (e.getCode() == KeyCode.ESCAPE) {
                cancel();
            }
        });
        ui.matchCase().selectedProperty().addListener(o -> searched = null);
        ui.progress().setVisible(false);
        ui.cancel().setVisible(false);
    }

    /** What the list's cells mark: the pattern, the kept match offsets and the current one; null when none. */
    ViewerLineCell.Highlight highlight() {
        return highlight;
    }

    /** Puts {@code text} in the search field and searches for it. */
    void find(String text) {
        ui.query().setText(text);
        findOrStep(false);
    }

    /** Enter: a new query searches the whole file; the same query again goes to the next match. */
    void findOrStep(boolean backwards) {
        String text = ui.query().getText();
        if (text == null || text.isEmpty() || !fileOpen.getAsBoolean()) {
            return;
        }
        FileSearch.Query q = new FileSearch.Query(text, ui.matchCase().isSelected());
        if (q.equals(searched) && highlight != null) {
            step(backwards ? -1 : 1);
            return;
        }
        start(q);
    }

    void cancel() {
        if (search != null && search.isRunning()) {
            search.cancel();
        }
    }

    private void start(FileSearch.Query q) {
        cancel();
        FileSearch engine;
        try {
            engine = new FileSearch(q);
        } catch (PatternSyntaxException e) {
            ui.matches().setText("bad regex: " + e.getDescription());
            return;
        }
        searched = q;
        highlight = null;
        ui.lines().refresh();
        Task<FileSearch.Result> task = new Task<>() {
            @Override
            protected FileSearch.Result call() throws IOException {
                return engine.run(file, new FileSearch.Progress() {
                    @Override
                    public void update(long scanned, long size, long matches) {
                        updateProgress(scanned, Math.max(1, size));
                        updateMessage(String.format(Locale.ROOT, "%,d matches so far", matches));
                    }

                    @Override
                    public boolean cancelled() {
                        return isCancelled();
                    }
                });
            }
        };
        search = task;
        ui.matches().textProperty().bind(task.messageProperty());
        ui.progress().progressProperty().bind(task.progressProperty());
        ui.progress().visibleProperty().bind(task.runningProperty());
        ui.cancel().visibleProperty().bind(task.runningProperty());
        task.setOnSucceeded(e -> done(q, task.getValue()));
        task.setOnFailed(e -> {
            ui.matches().textProperty().unbind();
            ui.matches().setText("search failed: " + task.getException().getMessage());
        });
        task.setOnCancelled(e -> {
            ui.matches().textProperty().unbind();
            ui.matches().setText("search cancelled");
            searched = null;
        });
        Thread t = new Thread(task, "runboard-viewer-search");
        t.setDaemon(true);
        t.start();
    }

    private void done(FileSearch.Query q, FileSearch.Result r) {
        ui.matches().textProperty().unbind();
        long[] offsets = r.offsets();
        if (r.count() == 0) {
            ui.matches().setText("no matches");
            return;
        }
        long from = shownFrom.getAsLong();
        int i = Arrays.binarySearch(offsets, from);
        int first = i >= 0 ? i : Math.min(offsets.length - 1, -i - 1);
        highlight = new ViewerLineCell.Highlight(q.displayPattern(), offsets, first);
        show();
    }

    private void step(int delta) {
        if (highlight == null || highlight.offsets().length == 0) {
            return;
        }
        int n = highlight.offsets().length;
        highlight = new ViewerLineCell.Highlight(highlight.pattern(), highlight.offsets(), Math.floorMod(highlight.current() + delta, n));
        show();
    }

    /** Says which match is current (of how many, and how many can be stepped through), marks it and shows its page. */
    private void show() {
        long at = highlight.offsets()[highlight.current()];
        FileSearch.Result shown = search == null ? null : search.getValue();
        long count = shown == null ? highlight.offsets().length : shown.count();
        ui.matches().setText(String.format(Locale.ROOT, "%,d of %,d%s", highlight.current() + 1, count,
                count > highlight.offsets().length ? String.format(Locale.ROOT, " (first %,d browsable)", highlight.offsets().length) : ""));
        ui.lines().refresh();
        reveal.accept(at);
    }
}
