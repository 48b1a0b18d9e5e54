package dev.runboard.ui.notify;

import javafx.animation.PauseTransition;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import javafx.stage.Popup;
import javafx.stage.Stage;
import javafx.util.Duration;

/** Toasts stacked in the window's bottom-right corner; each goes away after a while or when clicked. FX thread only. */
public final class ToastStack {
    private static final int MAX_TOASTS = 3;
    private static final Duration SHOWN_FOR = Duration.seconds(8);
    private final Stage stage;
    private final Popup popup = new Popup();
    private final VBox toasts = new VBox(8);

    public ToastStack(Stage stage) {
        this.stage = stage;
        toasts.getStyleClass().add("toast-stack");
        popup.getContent().add(toasts);
        popup.setAutoHide(false);
    }

    /** Shows a toast with {@code heading} over {@code body}; a click runs {@code onClick} and brings the window forward. */
    public VBox show(Label heading, String body, Runnable onClick) {
        heading.getStyleClass().add("toast-title");
        Label text = new Label(body);
        text.getStyleClass().add("toast-body");
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
        if (!popup.isShowing()) {
            popup.getScene().getStylesheets().setAll(stage.getScene().getStylesheets());
            // "root" too: the theme's colour variables are defined on .root, and a popup's root lacks it
            popup.getScene().getRoot().getStyleClass().setAll("root", "toast-host");
            if (stage.getScene().getRoot().getStyleClass().contains("theme-dark")) {
                popup.getScene().getRoot().getStyleClass().add("theme-dark");
            }
            popup.show(stage);
        }
        toasts.applyCss();
        toasts.layout();
        popup.setX(stage.getX() + stage.getWidth() - toasts.prefWidth(-1) - 24);
        popup.setY(stage.getY() + stage.getHeight() - toasts.prefHeight(-1) - 48);
        return toast;
    }

    /** The toasts now shown, newest first (for tests and the window's own checks). */
    public java.util.List<javafx.scene.Node> shown() {
        return java.util.List.copyOf(toasts.getChildren());
    }

    private void remove(VBox toast) {
        toasts.getChildren().remove(toast);
        if (toasts.getChildren().isEmpty()) {
            popup.hide();
        }
    }

    public void close() {
        popup.hide();
    }
}
