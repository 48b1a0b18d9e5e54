package dev.runboard.ui.window;

import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;

/**
 * Help → Keyboard shortcuts: every shortcut the window answers. The menu accelerators are read from
 * the menu bar when the list opens, the same items that register them (the Preferences and Workspace
 * menus add theirs later), so the list cannot miss one; the keys that act without a menu item follow.
 */
final class KeyboardHelp {
    /** A menu item's property: its words in the list, where its title alone says too little. */
    static final String WORDS = "runboard.keyboardHelp";

    /** The keys the focused control handles itself: no menu item registers them. */
    static final String[][] KEYS_WITHOUT_MENU = {
        {"Delete", "Remove the selected finished sessions from the list (with Undo)"},
        {"Ctrl+A / Shift+click / Ctrl+click", "Select many sessions in the table"},
        {"Enter / Shift+Enter", "Next / previous match (in the find field)"},
        {"Ctrl+C", "Copy the selected output lines"},
        {"End", "Resume following the output"},
        {"Esc / Ctrl+W", "Close the viewer, Compare or Search all runs"},
    };

    private KeyboardHelp() {
    }

    /** The list's rows, {key, what it does}: the menu bar's accelerators in menu order, then the other keys. */
    static List<String[]> shortcuts(MenuBar bar) {
        List<String[]> rows = new ArrayList<>();
        for (Menu menu : bar.getMenus()) {
            addAccelerators(menu.getItems(), rows);
        }
        rows.addAll(List.of(KEYS_WITHOUT_MENU));
        return rows;
    }

    private static void addAccelerators(List<MenuItem> items, List<String[]> rows) {
        for (MenuItem item : items) {
            if (item instanceof Menu sub) {
                addAccelerators(sub.getItems(), rows);
            } else if (item.getAccelerator() != null) {
                Object words = item.getProperties().get(WORDS);
                rows.add(new String[] {keys(item.getAccelerator()), words instanceof String w ? w : title(item)});
            }
        }
    }

    /** "Ctrl+Shift+F", "Ctrl+,", "F6": as the rest of the window writes keys (JavaFX's own text puts Shift first). */
    static String keys(KeyCombination combination) {
        StringBuilder text = new StringBuilder();
        if (combination.getShortcut() == KeyCombination.ModifierValue.DOWN || combination.getControl() == KeyCombination.ModifierValue.DOWN) {
            text.append("Ctrl+");
        }
        if (combination.getAlt() == KeyCombination.ModifierValue.DOWN) {
            text.append("Alt+");
        }
        if (combination.getShift() == KeyCombination.ModifierValue.DOWN) {
            text.append("Shift+");
        }
        if (combination.getMeta() == KeyCombination.ModifierValue.DOWN) {
            text.append("Meta+");
        }
        if (!(combination instanceof KeyCodeCombination k)) {
            return combination.getDisplayText();
        }
        KeyCode code = k.getCode();
        // A punctuation key reads as its character (Comma as ","); a key's char is not its name otherwise (F6's is "u").
        boolean named = code.isLetterKey() || code.isDigitKey() || code.isFunctionKey() || code.isNavigationKey()
                || code.isWhitespaceKey() || code.getChar().length() != 1;
        return text.append(named ? code.getName() : code.getChar()).toString();
    }

    /** The item's title without its mnemonic mark or trailing ellipsis. */
    private static String title(MenuItem item) {
        String text = item.getText() == null ? "" : item.getText().replace("_", "");
        return text.endsWith("\u2026") ? text.substring(0, text.length() - 1) : text;
    }

    static void show(Window owner, MenuBar bar) {
        List<String[]> shortcuts = shortcuts(bar);
        GridPane grid = new GridPane();
        grid.getStyleClass().add("shortcut-grid");
        for (int i = 0; i < shortcuts.size(); i++) {
            Label key = new Label(shortcuts.get(i)[0]);
            key.getStyleClass().add("shortcut-key");
            key.setMinWidth(Label.USE_PREF_SIZE);
            Label what = new Label(shortcuts.get(i)[1]);
            what.setWrapText(true); // wraps inside the dialog instead of running into its edge
            what.setMinHeight(Label.USE_PREF_SIZE); // and its row is as tall as its lines: else cut to "..."
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
        dev.runboard.ui.common.ScreenFit.openWhole(alert);
        alert.show();
    }
}
