package dev.runboard.ui.window;

import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;

/** Help → Keyboard shortcuts: one table of every shortcut the window answers. */
final class KeyboardHelp {
    static final String[][] SHORTCUTS = {
        {"Ctrl+N", "New session"},
        {"Ctrl+R", "Rerun the selected sessions (asks when one still runs)"},
        {"Ctrl+Shift+R", "Edit & rerun"},
        {"Ctrl+K", "Kill the selected sessions (TERM to each tree, KILL after the grace)"},
        {"Delete", "Remove the selected finished sessions from the list (with Undo)"},
        {"Ctrl+A / Shift+click / Ctrl+click", "Select many sessions in the table"},
        {"Ctrl+1", "Focus the sessions table"},
        {"F6 / Shift+F6", "Next / previous pane: table, output, side tabs, sidebar, filter"},
        {"Ctrl+Shift+O", "Open the selected session's full output in the viewer"},
        {"Esc / Ctrl+W", "Close the viewer"},
        {"Ctrl+F", "Find in the output"},
        {"Enter / Shift+Enter", "Next / previous match (in the find field)"},
        {"Ctrl+L", "Focus the session filter"},
        {"Ctrl+C", "Copy the selected output lines"},
        {"End", "Resume following the output"},
        {"Ctrl+O", "Open a folder as a workspace"},
        {"F1", "This list"},
        {"Ctrl+Q", "Quit (running sessions keep running)"},
    };

    private KeyboardHelp() {
    }

    static void show(Window owner) {
        GridPane grid = new GridPane();
        grid.getStyleClass().add("shortcut-grid");
        for (int i = 0; i < SHORTCUTS.length; i++) {
            Label key = new Label(SHORTCUTS[i][0]);
            key.getStyleClass().add("shortcut-key");
            key.setMinWidth(Label.USE_PREF_SIZE);
            Label what = new Label(SHORTCUTS[i][1]);
            what.setWrapText(true); // wraps inside the dialog instead of running into its edge
            grid.addRow(i, key, what);
        }
        grid.setHgap(16);
        grid.setVgap(6);
        grid.setMaxWidth(560);
        javafx.scene.layout.ColumnConstraints keys = new javafx.scene.layout.ColumnConstraints();
        javafx.scene.layout.ColumnConstraints words = new javafx.scene.layout.ColumnConstraints();
        words.setHgrow(javafx.scene.layout.Priority.ALWAYS);
        words.setMaxWidth(340);
        grid.getColumnConstraints().setAll(keys, words);
        Alert alert = new Alert(Alert.AlertType.NONE, null, ButtonType.CLOSE);
        alert.initOwner(owner);
        alert.setTitle("Keyboard shortcuts");
        alert.setHeaderText("Keyboard shortcuts");
        alert.getDialogPane().setContent(grid);
        alert.getDialogPane().setPrefWidth(600);
        alert.getDialogPane().getStylesheets().addAll(owner.getScene().getStylesheets());
        alert.show();
    }
}
