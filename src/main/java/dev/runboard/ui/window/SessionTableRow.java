package dev.runboard.ui.window;

import dev.runboard.ui.common.StatusLook;
import dev.runboard.ui.common.FollowedProperty;
import dev.runboard.ui.sessions.SessionRow;
import javafx.scene.control.TableRow;

/** A table row that carries its session's status as a pseudo-class, following status changes live. */
final class SessionTableRow extends TableRow<SessionRow> {
    private final FollowedProperty status = new FollowedProperty(o -> restyle());
    private SessionRow shown;

    SessionTableRow() {
        getStyleClass().add("session-row");
    }

    @Override
    protected void updateItem(SessionRow row, boolean empty) {
        super.updateItem(row, empty);
        shown = empty ? null : row;
        status.follow(shown == null ? null : shown.statusProperty());
        restyle();
    }

    private void restyle() {
        StatusLook.apply(this, shown == null ? null : shown.status());
    }
}
