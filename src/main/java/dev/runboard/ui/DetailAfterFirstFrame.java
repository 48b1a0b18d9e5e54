package dev.runboard.ui;

import dev.runboard.ui.common.LateView;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.sessions.SessionRow;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;
import javafx.scene.Scene;

/**
 * Loads the detail pane after the window's first frame: parsing its FXML, styling its forty-odd
 * controls and making their skins cost ~0.3 s of the FX thread before the first pulse, while all a
 * first frame shows of it, with nothing selected, is "Select a session…" (MainView.fxml's stand-in,
 * which the pane replaces when it loads: MainController). It loads at the first frame, or as soon as
 * a row is selected, or when anything else asks for it, whichever comes first (FX thread).
 */
final class DetailAfterFirstFrame {
    /** The detail pane's own text for no selection (DetailView.fxml's emptyLabel and MainView.fxml's stand-in). */
    static final String EMPTY_TEXT = "Select a session to see its output and facts.";

    private DetailAfterFirstFrame() {
    }

    /** Loads {@code detail} after the first frame of {@code scene} that shows {@code shown}, or at the first selection. */
    static void install(Scene scene, Node shown, LateView<?> detail, ObservableValue<SessionRow> selected, UiTasks tasks) {
        if (selected.getValue() != null) {
            detail.load();
            return;
        }
        ChangeListener<SessionRow> onSelect = (o, was, row) -> detail.load();
        selected.addListener(onSelect);
        detail.whenLoaded((view, controller) -> selected.removeListener(onSelect));
        // After the pulse that draws the first frame, not within it: that frame shows the stand-in, and the
        // next pulse styles and lays out the pane before it is drawn.
        FirstFrame.then(scene, shown, () -> tasks.fx(detail::load));
    }
}
