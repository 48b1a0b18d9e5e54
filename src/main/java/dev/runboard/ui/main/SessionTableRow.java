package dev.runboard.ui.main;

import dev.runboard.session.SessionStatus;
import dev.runboard.ui.sessions.SessionRow;
import javafx.beans.value.ChangeListener;
import javafx.scene.control.TableRow;

/** A table row that carries its session's status as a pseudo-class, following status changes live. */
final class SessionTableRow extends TableRow<SessionRow> {
    private final ChangeListener<SessionStatus> statusChanged = (o, was, now) -> StatusLook.apply(this, now);
    private SessionRow watched;

    SessionTableRow() {
        getStyleClass().add("session-row");
    }

    @Override
    protected void updateItem(SessionRow row, boolean empty) {
        super.updateItem(row, empty);
        if (watched != null) {
            watched.statusProperty().removeListener(statusChanged);
        }
        watched = empty ? null : row;
        if (watched != null) {
            watched.statusProperty().addListener(statusChanged);
        }
        StatusLook.apply(this, watched == null ? null : watched.status());
    }
}
