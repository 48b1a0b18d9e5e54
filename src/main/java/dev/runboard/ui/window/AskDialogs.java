package dev.runboard.ui.window;

import dev.runboard.ui.sessions.SessionRow;
import java.util.List;
import java.util.function.Consumer;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.stage.Window;

/** The two questions the window asks before doing something a person may not expect. */
final class AskDialogs {
    static final ButtonType CLOSE = new ButtonType("Close window", ButtonBar.ButtonData.OK_DONE);
    static final ButtonType BESIDE = new ButtonType("Run another beside it", ButtonBar.ButtonData.OTHER);
    static final ButtonType RESTART = new ButtonType("Restart it", ButtonBar.ButtonData.OK_DONE);

    private AskDialogs() {
    }

    /**
     * Quitting with sessions running: they keep running (the supervisor owns them), which a person
     * may not expect from closing a window. Blocks (it answers a close request); true to close.
     * {@code dontAskAgain} is told when the box is ticked and the window closes.
     */
    static boolean closeWithRunning(Window owner, int running, Runnable dontAskAgain) {
        Alert alert = new Alert(Alert.AlertType.INFORMATION, null, CLOSE, ButtonType.CANCEL);
        alert.initOwner(owner);
        alert.setTitle("Sessions keep running");
        alert.setHeaderText(running == 1 ? "1 session keeps running after the window closes"
                : running + " sessions keep running after the window closes");
        alert.setContentText("Their output is still recorded. Open runboard again to see them, or use `runboard list`.");
        CheckBox again = new CheckBox("Don't ask again");
        again.setId("dontAskAgain");
        alert.getDialogPane().setExpandableContent(null);
        alert.getDialogPane().setGraphic(null);
        // Wrapped, and as tall as its lines: unwrapped it was cut to "...or use `runbo..." at 1024 px.
        javafx.scene.control.Label sentence = new javafx.scene.control.Label(alert.getContentText());
        sentence.setId("closeWithRunningText");
        sentence.setWrapText(true);
        sentence.setMaxWidth(420);
        sentence.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        javafx.scene.layout.VBox body = new javafx.scene.layout.VBox(10, sentence, again);
        alert.getDialogPane().setContent(body);
        alert.getDialogPane().lookupButton(CLOSE).setId("closeAnywayButton");
        alert.getDialogPane().getStylesheets().addAll(owner.getScene().getStylesheets());
        dev.runboard.ui.common.ScreenFit.openWhole(alert);
        boolean close = alert.showAndWait().orElse(ButtonType.CANCEL) == CLOSE;
        if (close && again.isSelected()) {
            dontAskAgain.run();
        }
        return close;
    }

    /**
     * Rerun of a command whose previous run still runs: another copy beside it, or restart it.
     * Does not block; {@code answer} gets BESIDE, RESTART, or nothing on Cancel.
     */
    static void rerunWhileRunning(Window owner, List<SessionRow> running, Consumer<ButtonType> answer) {
        Alert alert = new Alert(Alert.AlertType.CONFIRMATION, null, BESIDE, RESTART, ButtonType.CANCEL);
        alert.initOwner(owner);
        alert.setTitle("Still running");
        alert.setHeaderText(running.size() == 1 ? running.get(0).commandProperty().get() + " is still running"
                : running.size() + " of these commands are still running");
        alert.setContentText("Run another copy beside it, or restart it (kill the running one, then run it again)?");
        alert.getDialogPane().lookupButton(BESIDE).setId("rerunBesideButton");
        alert.getDialogPane().lookupButton(RESTART).setId("rerunRestartButton");
        alert.getDialogPane().getStylesheets().addAll(owner.getScene().getStylesheets());
        alert.setOnHidden(e -> {
            ButtonType result = alert.getResult();
            if (result == BESIDE || result == RESTART) {
                answer.accept(result);
            }
        });
        dev.runboard.ui.common.ScreenFit.openWhole(alert);
        alert.show();
    }
}
