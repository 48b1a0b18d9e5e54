package dev.runboard.ui.common;

import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.stage.Stage;

/**
 * Esc or Ctrl+W closes a window of the app's own (the viewer, Compare, Search all runs), as in most
 * viewers: one rule for all of them, so none is left that only its title bar closes. A handler on
 * the scene, not a filter: a control that uses Esc itself (a find field clearing its text) gets it first.
 */
public final class CloseKeys {
    private static final KeyCombination CTRL_W = new KeyCodeCombination(KeyCode.W, KeyCombination.SHORTCUT_DOWN);

    private CloseKeys() {
    }

    /** Call once the stage has its scene. */
    public static void install(Stage stage) {
        stage.getScene().addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE || CTRL_W.match(e)) {
                stage.hide();
                e.consume();
            }
        });
    }
}
