package dev.runboard.ui.window;

import dev.runboard.ui.common.HoverTooltip;
import dev.runboard.ui.common.StatusLook;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.ui.sessions.SessionRow;
import javafx.beans.value.ChangeListener;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;

/**
 * Glyph plus word, coloured by the status pseudo-class. A running command with a readiness probe
 * reads "starting" until it is ready, then "ready"; a waiting or skipped one's reason is its tooltip.
 */
final class StatusCell extends TableCell<SessionRow, SessionStatus> {
    private final Label glyph = new Label();
    private final HoverTooltip reason = new HoverTooltip(this);
    /** Readiness and reasons change without a status change: the row's snapshot says when. */
    private final ChangeListener<SessionSnapshot> snapshotChanged = (o, was, now) -> show(getItem(), now);
    private SessionRow watched;

    StatusCell() {
        getStyleClass().add("status-cell");
        glyph.getStyleClass().add("status-glyph");
    }

    @Override
    protected void updateItem(SessionStatus status, boolean empty) {
        super.updateItem(status, empty);
        SessionRow row = empty || getTableRow() == null ? null : getTableRow().getItem();
        if (row != watched) {
            if (watched != null) {
                watched.snapshotProperty().removeListener(snapshotChanged);
            }
            watched = row;
            if (row != null) {
                row.snapshotProperty().addListener(snapshotChanged);
            }
        }
        show(empty ? null : status, row == null ? null : row.snapshotProperty().get());
    }

    private void show(SessionStatus status, SessionSnapshot s) {
        StatusLook.apply(this, status);
        if (status == null) {
            setText(null);
            setGraphic(null);
            reason.setText(null);
            return;
        }
        glyph.setText(StatusLook.glyph(status));
        setGraphic(glyph);
        boolean probed = s != null && s.ready() != null && status == SessionStatus.RUNNING;
        setText(probed ? (s.ready() ? "ready" : "starting") : status.word());
        String why = s == null || !(status.isWaiting() || status == SessionStatus.SKIPPED) ? null : s.reason();
        reason.setText(why);
    }
}
