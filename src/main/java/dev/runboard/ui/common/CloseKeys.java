package dev.runboard.ui.common;

import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.stage.Stage;

/**
 * Esc or Ctrl+W closes a window of the app's own (the viewer, Compare, Search all runs), as in most
 * viewers: one rule for all of them, so none is left that only its title bar closes. A text field
 * gets Esc first (a find field clears its text with it), so for one the key closes the window only
 * if the field leaves it; a list or tree does not: they take Esc for ending an edit whether or not
 * one is going on, and Search all runs with its results focused did not close (seen under openbox).
 */
public final class CloseKeys {
    private static final KeyCombination CTRL_W = new KeyCodeCombination(KeyCode.W, KeyCombination.SHORTCUT_DOWN);

    private CloseKeys() {
    }

    /** Call once the stage has its scene. */
    public static void install(Stage stage) {
        stage.getScene().addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (isClose(e) && !(stage.getScene().getFocusOwner() instanceof javafx.scene.control.TextInputControl)) {
                stage.hide();
                e.consume();
            }
        });
        stage.getScene().addEventHandler(KeyEvent.KEY_PRESSED, e -> { // what a text field left
            if (isClose(e)) {
                stage.hide();
                e.consume();
            }
        });
    }

    private static boolean isClose(KeyEvent e) {
        return e.getCode() == KeyCode.ESCAPE || CTRL_W.match(e);
    }
}
