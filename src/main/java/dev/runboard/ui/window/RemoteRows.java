package dev.runboard.ui.window;

import dev.runboard.ui.sessions.SessionRow;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;

/**
 * Whether any listed session runs on another host: the Host column shows only then. Counted as
 * rows come and go (a row's host never changes), so a history of 10,000 rows is not walked on every
 * change of the list.
 */
final class RemoteRows {
    private final ReadOnlyBooleanWrapper any = new ReadOnlyBooleanWrapper(this, "any");
    private int count;

    private RemoteRows() {
    }

    static ReadOnlyBooleanProperty anyIn(ObservableList<SessionRow> rows) {
        RemoteRows r = new RemoteRows();
        rows.forEach(row -> r.count += remote(row));
        r.any.set(r.count > 0);
        rows.addListener((ListChangeListener<SessionRow>) c -> {
            while (c.next()) {
                if (c.wasPermutated() || c.wasUpdated()) {
                    continue;
                }
                c.getRemoved().forEach(row -> r.count -= remote(row));
                c.getAddedSubList().forEach(row -> r.count += remote(row));
            }
            r.any.set(r.count > 0);
        });
        return r.any.getReadOnlyProperty();
    }

    private static int remote(SessionRow row) {
        return row.spec().host() != null ? 1 : 0;
    }
}
