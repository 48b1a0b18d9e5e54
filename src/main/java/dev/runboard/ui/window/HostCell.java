package dev.runboard.ui.window;

import dev.runboard.session.Session;
import dev.runboard.ui.sessions.SessionRow;
import javafx.css.PseudoClass;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;

/**
 * The Host column: where the session runs (empty for this machine) and, while a remote one runs, a
 * badge with its connection, {@code connected} or {@code disconnected} (the word the CLI prints),
 * coloured by a pseudo-class. The cell follows the row's host and connection, so an outage repaints
 * it at once.
 */
final class HostCell extends TableCell<SessionRow, SessionRow.Remote> {
    static final String BADGE = "connection-badge";
    private static final PseudoClass DISCONNECTED = PseudoClass.getPseudoClass(Session.DISCONNECTED);
    private final Label badge = new Label();

    HostCell() {
        getStyleClass().add("host-cell");
        badge.getStyleClass().add(BADGE);
        setContentDisplay(ContentDisplay.RIGHT);
        setGraphicTextGap(6);
    }

    @Override
    protected void updateItem(SessionRow.Remote remote, boolean empty) {
        super.updateItem(remote, empty);
        if (empty || remote == null) {
            setText(null);
            setGraphic(null);
            return;
        }
        setText(remote.host());
        if (remote.connection() == null) {
            setGraphic(null);
            return;
        }
        badge.setText(remote.connection());
        badge.pseudoClassStateChanged(DISCONNECTED, Session.DISCONNECTED.equals(remote.connection()));
        setGraphic(badge);
    }
}
