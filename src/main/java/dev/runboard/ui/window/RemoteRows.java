package dev.runboard.ui.window;

import dev.runboard.ui.sessions.SessionRow;
import java.util.IdentityHashMap;
import java.util.Map;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.value.ChangeListener;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;

/**
 * Whether any listed session runs on another host: the Host column shows only then. Counted as
 * rows come and go and as a row learns its host, so a history of 10,000 rows is not walked on every
 * change of the list. A row can learn its host after it is listed: the supervised window may list a
 * session from the supervisor's row index before its first whole snapshot, which says the host (a
 * count of the rows' specs alone once left the column hidden with a remote session listed).
 */
final class RemoteRows {
    private final ReadOnlyBooleanWrapper any = new ReadOnlyBooleanWrapper(this, "any");
    private final Map<SessionRow, ChangeListener<SessionRow.Remote>> watching = new IdentityHashMap<>();
    private int count;

    private RemoteRows() {
    }

    static ReadOnlyBooleanProperty anyIn(ObservableList<SessionRow> rows) {
        RemoteRows r = new RemoteRows();
        rows.forEach(r::watch);
        rows.addListener((ListChangeListener<SessionRow>) c -> {
            while (c.next()) {
                if (c.wasPermutated() || c.wasUpdated()) {
                    continue;
                }
                c.getRemoved().forEach(r::forget);
                c.getAddedSubList().forEach(r::watch);
            }
        });
        r.publish();
        return r.any.getReadOnlyProperty();
    }

    private void watch(SessionRow row) {
        if (watching.containsKey(row)) {
            return;
        }
        ChangeListener<SessionRow.Remote> listener = (o, was, now) -> {
            count += (now != null ? 1 : 0) - (was != null ? 1 : 0);
            publish();
        };
        watching.put(row, listener);
        row.remoteProperty().addListener(listener);
        count += remote(row);
        publish();
    }

    private void forget(SessionRow row) {
        ChangeListener<SessionRow.Remote> listener = watching.remove(row);
        if (listener != null) {
            row.remoteProperty().removeListener(listener);
            count -= remote(row);
            publish();
        }
    }

    private void publish() {
        any.set(count > 0);
    }

    private static int remote(SessionRow row) {
        return row.remoteProperty().get() != null ? 1 : 0;
    }
}
