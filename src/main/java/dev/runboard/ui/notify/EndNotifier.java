package dev.runboard.ui.notify;

import dev.runboard.session.SessionSnapshot;
import dev.runboard.ui.Formats;
import dev.runboard.ui.main.StatusLook;
import dev.runboard.ui.sessions.SessionRow;
import java.util.function.Consumer;
import javafx.animation.PauseTransition;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import javafx.stage.Popup;
import javafx.stage.Stage;
import javafx.util.Duration;

/**
 * Tells the user a session ended while they were looking elsewhere (the window unfocused): a toast
 * in the window's corner (click selects the session) and a desktop notification when possible.
 */
public final class EndNotifier {
    private static final int MAX_TOASTS = 3;
    private final Stage stage;
    private final Consumer<SessionRow> select;
    private final DesktopNotifier desktop;
    private final Popup popup = new Popup();
    private final VBox toasts = new VBox(8);

    public EndNotifier(Stage stage, Consumer<SessionRow> select, DesktopNotifier desktop) {
        this.stage = stage;
        this.select = select;
        this.desktop = desktop;
        toasts.getStyleClass().add("toast-stack");
        popup.getContent().add(toasts);
        popup.setAutoHide(false);
    }

    /** Called on the FX thread by the sessions view-model when a polled session ends. */
    public void sessionEnded(SessionRow row) {
        if (stage.isFocused() || !stage.isShowing()) {
            return;
        }
        SessionSnapshot s = row.snapshot();
        String title = s.status().word() + ": " + s.command();
        String body = summary(s);
        showToast(row, title, body);
        desktop.notify("runboard \u2014 " + title, body);
    }

    static String summary(SessionSnapshot s) {
        StringBuilder sb = new StringBuilder();
        if (s.signal() != null) {
            sb.append("signal ").append(s.signal());
        } else if (s.exitCode() != null) {
            sb.append("exit ").append(s.exitCode());
        }
        if (sb.length() > 0) {
            sb.append(" \u00B7 ");
        }
        sb.append(Formats.elapsed(s.elapsed()));
        String last = s.lastLine();
        if (!last.isEmpty()) {
            sb.append(" \u00B7 ").append(last.length() > 80 ? last.substring(0, 80) + "\u2026" : last);
        }
        return sb.toString();
    }

    private void showToast(SessionRow row, String title, String body) {
        Label heading = new Label(StatusLook.glyph(row.status()) + "  " + title);
        heading.getStyleClass().add("toast-title");
        StatusLook.apply(heading, row.status());
        Label text = new Label(body);
        text.getStyleClass().add("toast-body");
        VBox toast = new VBox(2, heading, text);
        toast.getStyleClass().add("toast");
        toast.setOnMouseClicked(e -> {
            select.accept(row);
            stage.toFront();
            stage.requestFocus();
            remove(toast);
        });
        toasts.getChildren().add(0, toast);
        if (toasts.getChildren().size() > MAX_TOASTS) {
            toasts.getChildren().remove(MAX_TOASTS, toasts.getChildren().size());
        }
        PauseTransition later = new PauseTransition(Duration.seconds(8));
        later.setOnFinished(e -> remove(toast));
        later.play();
        if (!popup.isShowing()) {
            popup.getScene().getStylesheets().setAll(stage.getScene().getStylesheets());
            popup.getScene().getRoot().getStyleClass().setAll("toast-host");
            if (stage.getScene().getRoot().getStyleClass().contains("theme-dark")) {
                popup.getScene().getRoot().getStyleClass().add("theme-dark");
            }
            popup.show(stage);
        }
        toasts.applyCss();
        toasts.layout();
        popup.setX(stage.getX() + stage.getWidth() - toasts.prefWidth(-1) - 24);
        popup.setY(stage.getY() + stage.getHeight() - toasts.prefHeight(-1) - 48);
    }

    private void remove(VBox toast) {
        toasts.getChildren().remove(toast);
        if (toasts.getChildren().isEmpty()) {
            popup.hide();
        }
    }

    public void close() {
        popup.hide();
        desktop.close();
    }
}
