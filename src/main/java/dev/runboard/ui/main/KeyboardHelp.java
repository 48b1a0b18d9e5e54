package dev.runboard.ui.main;

import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;

/** Help → Keyboard shortcuts: one table of every shortcut the window answers. */
final class KeyboardHelp {
    static final String[][] SHORTCUTS = {
        {"Ctrl+N", "New session"},
        {"Ctrl+R", "Rerun the selected session"},
        {"Ctrl+Shift+R", "Edit & rerun"},
        {"Ctrl+K", "Kill (TERM to the tree, KILL after the grace)"},
        {"Delete", "Remove the selected finished session from the list"},
        {"Ctrl+F", "Find in the output"},
        {"Enter / Shift+Enter", "Next / previous match (in the find field)"},
        {"Ctrl+L", "Focus the session filter"},
        {"Ctrl+C", "Copy the selected output lines"},
        {"End", "Resume following the output"},
        {"F1", "This list"},
        {"Ctrl+Q", "Quit"},
    };

    private KeyboardHelp() {
    }

    static void show(Window owner) {
        GridPane grid = new GridPane();
        grid.getStyleClass().add("shortcut-grid");
        for (int i = 0; i < SHORTCUTS.length; i++) {
            Label key = new Label(SHORTCUTS[i][0]);
            key.getStyleClass().add("shortcut-key");
            grid.addRow(i, key, new Label(SHORTCUTS[i][1]));
        }
        Alert alert = new Alert(Alert.AlertType.NONE, null, ButtonType.CLOSE);
        alert.initOwner(owner);
        alert.setTitle("Keyboard shortcuts");
        alert.setHeaderText("Keyboard shortcuts");
        alert.getDialogPane().setContent(grid);
        alert.getDialogPane().getStylesheets().addAll(owner.getScene().getStylesheets());
        alert.show();
    }
}
