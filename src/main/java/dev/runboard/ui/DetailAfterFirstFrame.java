package dev.runboard.ui;

import dev.runboard.ui.common.LateView;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.sessions.SessionRow;
import javafx.application.Platform;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;
import javafx.scene.Scene;

/**
 * Loads the detail pane after the window's first frame: parsing its FXML, styling its forty-odd
 * controls and making their skins cost ~0.3 s of the FX thread before the first pulse, while all a
 * first frame shows of it, with nothing selected, is "Select a session…" (ui.window.MainView's stand-in,
 * which the pane replaces when it loads: MainController). It loads at the first frame, or, while a
 * history loads, at the frame that shows its rows; or as soon as a row is selected, or when anything
 * else asks for it, whichever comes first (FX thread). Loaded during a history's read, the pane took
 * the FX thread and a core from it, and the rows of 10,000 sessions came 0.5-0.7 s later; loaded
 * after them, it costs the FX thread 0.15-0.35 s instead of ~0.6 s, much of it compiled by then
 * (docs/BENCHMARKS.md §14).
 */
final class DetailAfterFirstFrame {
    /** The detail pane's own text for no selection (DetailView.fxml's emptyLabel and ui.window.MainView's stand-in). */
    static final String EMPTY_TEXT = "Select a session to see its output and facts.";

    private DetailAfterFirstFrame() {
    }

    /**
     * Loads {@code detail} after the first frame of {@code scene} that shows {@code shown} (after the frame
     * that shows the history's rows while {@code loading} is not -1), or at the first selection.
     */
    static void install(Scene scene, Node shown, LateView<?> detail, ObservableValue<SessionRow> selected,
                        ObservableValue<Number> loading, UiTasks tasks) {
        if (selected.getValue() != null) {
            detail.load();
            return;
        }
        ChangeListener<SessionRow> onSelect = (o, was, row) -> detail.load();
        selected.addListener(onSelect);
        detail.whenLoaded((view, controller) -> selected.removeListener(onSelect));
        // After the pulse that draws the first frame, not within it: that frame shows the stand-in, and the
        // next pulse styles and lays out the pane before it is drawn.
        FirstFrame.then(scene, shown, () -> {
            if (loading.getValue().intValue() < 0) {
                tasks.fx(detail::load);
            } else {
                afterHistory(loading, () -> {
                    FirstFrame.then(scene, shown, () -> tasks.fx(detail::load));
                    Platform.requestNextPulse();
                });
            }
        });
    }

    /** Runs {@code action} once, when {@code loading} becomes -1 (the history's rows joined the table). */
    private static void afterHistory(ObservableValue<Number> loading, Runnable action) {
        ChangeListener<Number> done = new ChangeListener<>() {
            @Override
            public void changed(ObservableValue<? extends Number> o, Number was, Number now) {
                if (now.intValue() < 0) {
                    loading.removeListener(this);
                    action.run();
                }
            }
        };
        loading.addListener(done);
    }
}
