package dev.runboard.ui.prefs;

import dev.runboard.ui.common.Theme;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;

/**
 * Edit → Preferences…: the settings a person changes most, one field each, checked as typed with
 * the CLI's rules (Save stays disabled and the first problem is shown in full). Saving writes
 * settings.json in the background; the theme applies at once.
 */
public final class PreferencesDialog {
    static final ButtonType SAVE = new ButtonType("Save", ButtonBar.ButtonData.OK_DONE);

    private static final java.util.Map<String, String> LABELS = java.util.Map.of(
            "theme", "Theme (light or dark)",
            "default_nice", "Default priority (nice 0–19)",
            "default_grace_ms", "Default grace (ms, or 2s)",
            "default_timeout_ms", "Default timeout (none, 30m…)",
            "keep_finished", "Keep finished sessions",
            "keep_artifact_bytes", "Keep artifacts up to (bytes, or 5G)");

    private PreferencesDialog() {
    }

    /** Opens the dialog; returns once it is shown (it saves by itself when Save is pressed). */
    public static Dialog<ButtonType> open(Window owner, PreferencesViewModel model, Theme theme) {
        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.initOwner(owner);
        dialog.setTitle("Preferences");
        dialog.setResizable(true);
        GridPane grid = new GridPane();
        grid.setHgap(8);
        grid.setVgap(6);
        int row = 0;
        for (String key : PreferencesViewModel.keys()) {
            Label label = new Label(LABELS.get(key));
            TextField field = new TextField();
            field.setId("pref-" + key);
            field.setPrefColumnCount(18);
            field.textProperty().bindBidirectional(model.field(key));
            Tooltip tip = new Tooltip(PreferencesViewModel.description(key) + "\nAllowed: " + PreferencesViewModel.allowed(key));
            tip.setWrapText(true);
            tip.setMaxWidth(420);
            field.setTooltip(tip);
            label.setLabelFor(field);
            grid.addRow(row++, label, field);
        }
        Label problem = new Label();
        problem.setId("prefProblem");
        problem.setWrapText(true);
        problem.setMaxWidth(460);
        problem.getStyleClass().add("error-text");
        problem.textProperty().bind(model.problem());
        grid.add(problem, 0, row++, 2, 1);
        // Said, so nobody waits for a change that comes only with the next window.
        Label when = new Label("Retention applies at once; the New session dialog takes the grace from the next start"
                + " of the window.");
        when.setWrapText(true);
        when.setMaxWidth(460);
        grid.add(when, 0, row, 2, 1);
        dialog.getDialogPane().setContent(grid);
        dialog.getDialogPane().getButtonTypes().setAll(SAVE, ButtonType.CANCEL);
        dialog.getDialogPane().lookupButton(SAVE).disableProperty().bind(model.problem().isNotEmpty());
        theme.register(dialog.getDialogPane().getScene());
        dialog.setOnHidden(e -> {
            if (dialog.getResult() == SAVE) {
                // The theme changes once the file is written: the window saves a theme change too,
                // and must read the file after this save, not before it.
                model.save(saved -> theme.darkProperty().set("dark".equals(saved.theme())));
            }
        });
        model.load();
        dialog.show();
        return dialog;
    }
}
