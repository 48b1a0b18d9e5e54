package dev.runboard.ui.prefs;

import dev.runboard.ui.common.Theme;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Control;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;

/**
 * Edit → Preferences…: the settings a person changes most, one field each, checked as typed with
 * the CLI's rules (Save stays disabled and each invalid field says why under it); values are shown as
 * people write them (30m, 3G). Saving writes
 * settings.json in the background; the theme applies at once.
 */
public final class PreferencesDialog {
    static final ButtonType SAVE = new ButtonType("Save", ButtonBar.ButtonData.OK_DONE);

    private static final java.util.Map<String, String> LABELS = java.util.Map.of(
            "theme", "Theme",
            "default_nice", "Default priority (nice 0–19)",
            "default_grace_ms", "Default grace (e.g. 5s)",
            "default_timeout_ms", "Default timeout (e.g. 30m, or none)",
            "keep_finished", "Keep finished sessions",
            "keep_artifact_bytes", "Keep artifacts up to (e.g. 5G)");

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
        grid.setPadding(new javafx.geometry.Insets(12, 16, 4, 16)); // the theme's dialog content has none: the form touched the edge
        int row = 0;
        for (String key : PreferencesViewModel.keys()) {
            Label label = new Label(LABELS.get(key));
            Control field = field(key, model);
            Tooltip tip = new Tooltip(PreferencesViewModel.description(key) + "\nAllowed: " + PreferencesViewModel.allowed(key));
            tip.setWrapText(true);
            tip.setMaxWidth(420);
            field.setTooltip(tip);
            label.setLabelFor(field);
            grid.addRow(row++, label, field);
            // Each field says its own problem under it: a person fixing two values sees both.
            Label problem = new Label();
            problem.setId("prefProblem-" + key);
            problem.setWrapText(true);
            problem.setMaxWidth(300);
            problem.getStyleClass().add("error-text");
            problem.textProperty().bind(model.problem(key));
            problem.visibleProperty().bind(model.problem(key).isNotEmpty());
            problem.managedProperty().bind(problem.visibleProperty());
            grid.add(problem, 1, row++);
        }
        Label when = new Label("Changes apply at once: retention at its next pass, the defaults to the next new session.");
        when.setWrapText(true);
        when.setMaxWidth(460);
        grid.add(when, 0, row, 2, 1);
        dialog.getDialogPane().setContent(grid);
        dialog.getDialogPane().getButtonTypes().setAll(SAVE, ButtonType.CANCEL);
        dialog.getDialogPane().lookupButton(SAVE).disableProperty().bind(model.problem().isNotEmpty());
        theme.register(dialog.getDialogPane().getScene());
        // The dialog's own size from its content: without it, the first one opened at 200 by 200.
        dialog.getDialogPane().setMinSize(javafx.scene.layout.Region.USE_PREF_SIZE, javafx.scene.layout.Region.USE_PREF_SIZE);
        dialog.setOnHidden(e -> {
            if (dialog.getResult() == SAVE) {
                // The theme changes once the file is written: the window saves a theme change too,
                // and must read the file after this save, not before it.
                model.save(saved -> theme.darkProperty().set("dark".equals(saved.theme())));
            }
        });
        model.load();
        dev.runboard.ui.common.ScreenFit.openWhole(dialog);
        dialog.show();
        return dialog;
    }

    /** A choice for a key with few values (the theme), a text field for the rest. */
    private static Control field(String key, PreferencesViewModel model) {
        if (key.equals("theme")) {
            ChoiceBox<String> choice = new ChoiceBox<>();
            choice.getItems().setAll("light", "dark");
            choice.setId("pref-theme");
            choice.valueProperty().bindBidirectional(model.field(key));
            return choice;
        }
        TextField field = new TextField();
        field.setId("pref-" + key);
        field.setPrefColumnCount(18);
        field.textProperty().bindBidirectional(model.field(key));
        return field;
    }
}
