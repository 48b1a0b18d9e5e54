package dev.runboard.ui.notify;

import dev.runboard.session.SessionSnapshot;
import dev.runboard.ui.common.Formats;
import dev.runboard.ui.common.StatusLook;
import dev.runboard.ui.sessions.SessionRow;
import java.util.function.Consumer;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * Tells the user a session ended while they were looking elsewhere (the window unfocused): a toast
 * in the window's corner (click selects the session) and a desktop notification when possible.
 */
public final class EndNotifier {
    private final Stage stage;
    private final Consumer<SessionRow> select;
    private final DesktopNotifier desktop;
    private final ToastStack toasts;

    public EndNotifier(Stage stage, ToastStack toasts, Consumer<SessionRow> select, DesktopNotifier desktop) {
        this.stage = stage;
        this.toasts = toasts;
        this.select = select;
        this.desktop = desktop;
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
        StatusLook.apply(heading, row.status());
        toasts.show(heading, body, () -> select.accept(row));
    }

    public void close() {
        toasts.close();
        desktop.close();
    }
}
