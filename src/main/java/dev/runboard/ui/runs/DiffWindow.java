package dev.runboard.ui.runs;

import dev.runboard.ui.common.CloseKeys;
import dev.runboard.ui.common.UiTasks;
import java.nio.file.Path;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.stage.Stage;

/**
 * "Compare with previous run": the unified diff of two runs' outputs, coloured, with a toggle that
 * ignores numbers, timestamps, durations and addresses; it opens at the first real difference.
 * The comparison runs on a worker and streams both files, so gigabyte outputs are fine.
 */
final class DiffWindow {
    private final Stage stage = new Stage();
    private final ListView<String> lines = new ListView<>();
    private final CheckBox ignore = new CheckBox("Ignore numbers, timestamps and addresses");
    private final Label result = new Label("Comparing\u2026");
    private final Button first = new Button("First difference");
    /** What the empty list says: comparing, or that there is no difference to show. */
    private final Label empty = new Label();
    private final UiTasks tasks;
    private final Path older;
    private final String olderLabel;
    private final Path newer;
    private final String newerLabel;
    private int firstChange = -1;
    private int generation;

    DiffWindow(UiTasks tasks, Path older, String olderLabel, Path newer, String newerLabel) {
        this.tasks = tasks;
        this.older = older;
        this.olderLabel = olderLabel;
        this.newer = newer;
        this.newerLabel = newerLabel;
        lines.setId("diffLines");
        ignore.setId("ignoreVolatile");
        result.setId("diffResult");
        first.setId("firstDifference");
        lines.setCellFactory(v -> new DiffCell());
        lines.setPlaceholder(empty);
        ignore.selectedProperty().addListener((o, was, now) -> compare());
        first.setOnAction(e -> jumpToFirst());
        // A FlowPane, not a ToolBar or an HBox: a ToolBar hides what does not fit in its overflow menu and an HBox
        // cuts every label short; this bar wraps onto a second line when two run ids, the toggle and the result do
        // not fit on one (they nearly fill 1000 pixels, and each font measures them differently).
        FlowPane bar = new FlowPane(12, 6, new Label(olderLabel + "  \u2192  " + newerLabel), ignore, first, result);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(6, 8, 6, 8));
        BorderPane root = new BorderPane(lines, bar, null, null, null);
        BorderPane.setMargin(lines, new Insets(0));
        stage.setScene(new Scene(root, 1000, 700));
        stage.setTitle("Compare " + olderLabel + " with " + newerLabel + " \u2014 runboard");
        CloseKeys.install(stage);
        dev.runboard.ui.common.ScreenFit.openWhole(stage, 1000, 700);
    }

    void show() {
        stage.show();
        compare();
    }

    private void compare() {
        int mine = ++generation;
        boolean ignoring = ignore.isSelected();
        say("Comparing\u2026", "Comparing\u2026");
        first.setDisable(true);
        tasks.onFx(tasks.background(() -> DiffText.compare(older, olderLabel, newer, newerLabel, ignoring)), (diff, error) -> {
            if (mine != generation) {
                return; // the toggle changed meanwhile: a newer comparison is coming
            }
            if (error != null) {
                say("Cannot compare: " + error.getMessage(), "Cannot compare: " + error.getMessage());
                lines.getItems().clear();
                return;
            }
            lines.getItems().setAll(diff.lines());
            firstChange = diff.firstChange();
            first.setDisable(firstChange < 0);
            String apart = ignoring ? ", apart from numbers and timestamps" : "";
            say(diff.same() ? "Same output" + apart
                    : "Differs" + (diff.cut() ? " (first " + DiffText.MAX_LINES + " lines of the diff shown)" : ""),
                    "Both runs printed the same output" + apart);
            jumpToFirst();
        });
    }

    /** The bar's result, and what the list says while it has no lines to show. */
    private void say(String resultText, String emptyText) {
        result.setText(resultText);
        empty.setText(emptyText);
    }

    private void jumpToFirst() {
        if (firstChange >= 0) {
            lines.scrollTo(Math.max(0, firstChange - 3));
            lines.getSelectionModel().select(firstChange);
        }
    }

    private static final class DiffCell extends ListCell<String> {
        @Override
        protected void updateItem(String line, boolean empty) {
            super.updateItem(line, empty);
            setText(empty ? null : line);
            // Lines as a terminal or diff(1) shows them: the theme's list cells are 2.8 em high, which read as double spacing.
            String style = "-fx-font-family: monospace; -fx-cell-size: 1.45em; -fx-padding: 0 0.5em 0 0.5em;";
            if (!empty && line != null && !line.isEmpty()) {
                if (line.startsWith("@@")) {
                    style += "-fx-text-fill: #3a7bd5;";
                } else if (line.startsWith("+") && !line.startsWith("+++ ")) {
                    style += "-fx-text-fill: #2e9d4c;";
                } else if (line.startsWith("-") && !line.startsWith("--- ")) {
                    style += "-fx-text-fill: #d64545;";
                }
            }
            setStyle(style);
        }
    }
}
