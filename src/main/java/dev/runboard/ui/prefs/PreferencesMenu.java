package dev.runboard.ui.prefs;

import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.input.KeyCombination;

/** Puts Edit → Preferences… (Ctrl+,) into the main window's menu bar. */
public final class PreferencesMenu {
    private PreferencesMenu() {
    }

    /** Adds the item to the Edit menu, which is made (after the first menu) if the bar has none. */
    public static void install(Scene scene, Runnable open) {
        if (!(scene.lookup(".menu-bar") instanceof MenuBar bar)) {
            return;
        }
        Menu edit = bar.getMenus().stream().filter(m -> m.getText().replace("_", "").equals("Edit")).findFirst()
                .orElseGet(() -> {
                    Menu m = new Menu("_Edit");
                    bar.getMenus().add(Math.min(1, bar.getMenus().size()), m);
                    return m;
                });
        MenuItem item = new MenuItem("_Preferences…");
        item.setId("preferencesMenuItem");
        item.setAccelerator(KeyCombination.keyCombination("Shortcut+Comma"));
        item.setOnAction(e -> open.run());
        edit.getItems().add(item);
    }

}
