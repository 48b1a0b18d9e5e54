package dev.runboard.ui;

import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.sessions.SessionRow;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.StackPane;

/**
 * Keeps the detail pane out of the window until its first frame: styling its forty-odd controls
 * (and making their skins) cost ~0.2 s of the FX thread's CPU before the first pulse, while all a
 * first frame shows of it, with nothing selected, is "Select a session…". A stand-in that looks the
 * same holds its place in the split; the pane itself takes it over at the first frame, or as soon as
 * a row is selected, whichever comes first (FX thread).
 */
final class DetailAfterFirstFrame {
    /** The detail pane's own text for no selection (DetailView.fxml's emptyLabel). */
    static final String EMPTY_TEXT = "Select a session to see its output and facts.";

    private final SplitPane split;
    private final Node detail;
    private final Node standIn;
    private final ObservableValue<SessionRow> selected;
    private final ChangeListener<SessionRow> onSelect = (o, was, row) -> attach();

    private DetailAfterFirstFrame(SplitPane split, Node detail, ObservableValue<SessionRow> selected) {
        this.split = split;
        this.detail = detail;
        this.selected = selected;
        Label empty = new Label(EMPTY_TEXT);
        empty.getStyleClass().add("placeholder-label");
        StackPane pane = new StackPane(empty);
        pane.getStyleClass().add("detail-view");
        this.standIn = pane;
    }

    /** Puts the stand-in in place of {@code detail} (an item of {@code split}) until the first frame of {@code scene}. */
    static void install(Scene scene, SplitPane split, Node detail, ObservableValue<SessionRow> selected, UiTasks tasks) {
        int at = split.getItems().indexOf(detail);
        if (at < 0 || selected.getValue() != null) {
            return;
        }
        DetailAfterFirstFrame late = new DetailAfterFirstFrame(split, detail, selected);
        split.getItems().set(at, late.standIn);
        selected.addListener(late.onSelect);
        // After the pulse that draws the first frame, not within it: that frame shows the stand-in, and the
        // next pulse styles and lays out the pane before it is drawn.
        FirstFrame.then(scene, split, () -> tasks.fx(late::attach));
    }

    private void attach() {
        selected.removeListener(onSelect);
        int at = split.getItems().indexOf(standIn);
        if (at >= 0) {
            // Replacing an item forgets the divider beside it: the ones WindowMemory restored are put back.
            double[] dividers = split.getDividerPositions();
            split.getItems().set(at, detail);
            split.setDividerPositions(dividers);
        }
    }
}
