package dev.runboard.ui.window;

import dev.runboard.session.Session;
import dev.runboard.ui.sessions.SessionRow;
import javafx.css.PseudoClass;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;

/**
 * The Host column: where the session runs (empty for this machine) and, while a remote one runs, a
 * badge with its connection, {@code connected} or {@code disconnected} (the word the CLI prints),
 * coloured by a pseudo-class. The cell follows the row's host and connection, so an outage repaints
 * it at once. In a narrow column the badge gives way before the host's name does: a row must still
 * say which host it is.
 */
final class HostCell extends TableCell<SessionRow, SessionRow.Remote> {
    static final String BADGE = "connection-badge";
    private static final PseudoClass DISCONNECTED = PseudoClass.getPseudoClass(Session.DISCONNECTED);
    private final Label name = new Label();
    private final Label badge = new Label();
    private final HBox box = new HBox(6, name, badge);

    HostCell() {
        getStyleClass().add("host-cell");
        name.getStyleClass().add("host-name");
        name.setMinWidth(Region.USE_PREF_SIZE);
        badge.getStyleClass().add(BADGE);
        badge.setMinWidth(0);
        box.setFillHeight(false);
        box.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
    }

    @Override
    protected void updateItem(SessionRow.Remote remote, boolean empty) {
        super.updateItem(remote, empty);
        setText(null);
        if (empty || remote == null) {
            setGraphic(null);
            return;
        }
        name.setText(remote.host());
        boolean linked = remote.connection() != null;
        badge.setVisible(linked);
        badge.setManaged(linked);
        if (linked) {
            badge.setText(remote.connection());
            badge.pseudoClassStateChanged(DISCONNECTED, Session.DISCONNECTED.equals(remote.connection()));
        }
        setGraphic(box);
    }
}
