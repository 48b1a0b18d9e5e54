package dev.runboard.ui.notify;

import javafx.animation.PauseTransition;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.util.Duration;

/**
 * Toasts stacked in the window's bottom-right corner; each goes away after a while or when clicked.
 * They are a layer of the window itself ({@link #layer()}), not a popup: a popup floats above every
 * window, so it covered the New-session dialog's buttons, and it stayed put when the window moved.
 * FX thread only.
 */
public final class ToastStack {
    private static final int MAX_TOASTS = 3;
    private static final Duration SHOWN_FOR = Duration.seconds(8);
    /** Clear of the status bar and the table's scroll bar. */
    private static final Insets MARGIN = new Insets(0, 24, 40, 0);
    private final Stage stage;
    private final VBox toasts = new VBox(8);

    public ToastStack(Stage stage) {
        this.stage = stage;
        toasts.getStyleClass().add("toast-stack");
        toasts.setMaxSize(Region.USE_PREF_SIZE, Region.USE_PREF_SIZE);
        toasts.setPickOnBounds(false);
        StackPane.setAlignment(toasts, Pos.BOTTOM_RIGHT);
        StackPane.setMargin(toasts, MARGIN);
    }

    /** The layer to put over the window's content, in a {@link StackPane}. */
    public Node layer() {
        return toasts;
    }

    /** Shows a toast with {@code heading} over {@code body}; a click runs {@code onClick} and brings the window forward. */
    public VBox show(Label heading, String body, Runnable onClick) {
        heading.getStyleClass().add("toast-title");
        Label text = new Label(body);
        text.getStyleClass().add("toast-body");
        text.setWrapText(true);
        text.setMaxWidth(360);
        text.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        VBox toast = new VBox(2, heading, text);
        toast.getStyleClass().add("toast");
        toast.setOnMouseClicked(e -> {
            onClick.run();
            stage.toFront();
            stage.requestFocus();
            remove(toast);
        });
        toasts.getChildren().add(0, toast);
        if (toasts.getChildren().size() > MAX_TOASTS) {
            toasts.getChildren().remove(MAX_TOASTS, toasts.getChildren().size());
        }
        PauseTransition later = new PauseTransition(SHOWN_FOR);
        later.setOnFinished(e -> remove(toast));
        later.play();
        return toast;
    }

    /**
     * A toast with an Undo button, shown as long as the undo is possible ({@code window}); the
     * button runs {@code undo} once and closes the toast.
     */
    public VBox offerUndo(String text, Runnable undo, Duration window) {
        Label body = new Label(text);
        body.getStyleClass().add("toast-body");
        body.setWrapText(true);
        body.setMaxWidth(360);
        body.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        javafx.scene.control.Button button = new javafx.scene.control.Button("Undo");
        button.setId("undoButton");
        // Never narrower than its word: the row once squeezed it to "U..." beside a long sentence at 1024 px.
        button.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        button.getStyleClass().addAll("small", "accent");
        javafx.scene.layout.HBox row = new javafx.scene.layout.HBox(12, body, button);
        row.setAlignment(Pos.CENTER_LEFT);
        VBox toast = new VBox(row);
        toast.getStyleClass().addAll("toast", "undo-toast");
        button.setOnAction(e -> {
            remove(toast);
            undo.run();
        });
        toasts.getChildren().add(0, toast);
        if (toasts.getChildren().size() > MAX_TOASTS) {
            toasts.getChildren().remove(MAX_TOASTS, toasts.getChildren().size());
        }
        PauseTransition later = new PauseTransition(window);
        later.setOnFinished(e -> remove(toast));
        later.play();
        return toast;
    }

    /** The toasts now shown, newest first (for tests and the window's own checks). */
    public java.util.List<javafx.scene.Node> shown() {
        return java.util.List.copyOf(toasts.getChildren());
    }

    private void remove(VBox toast) {
        toasts.getChildren().remove(toast);
    }

    public void close() {
        toasts.getChildren().clear();
    }
}
