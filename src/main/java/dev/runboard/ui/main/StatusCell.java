package dev.runboard.ui.main;

import dev.runboard.session.SessionStatus;
import dev.runboard.ui.sessions.SessionRow;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;

/** Glyph plus word, coloured by the status pseudo-class. */
final class StatusCell extends TableCell<SessionRow, SessionStatus> {
    private final Label glyph = new Label();

    StatusCell() {
        getStyleClass().add("status-cell");
        glyph.getStyleClass().add("status-glyph");
    }

    @Override
    protected void updateItem(SessionStatus status, boolean empty) {
        super.updateItem(status, empty);
        StatusLook.apply(this, empty ? null : status);
        if (empty || status == null) {
            setText(null);
            setGraphic(null);
            return;
        }
        glyph.setText(StatusLook.glyph(status));
        setGraphic(glyph);
        setText(status.word());
    }
}
