package dev.runboard.ui.common;

import javafx.beans.InvalidationListener;
import javafx.beans.value.ObservableValue;

/**
 * One listener on whichever property a reused cell or row shows right now. Cells are handed new
 * items as the view scrolls; the listener moves with them instead of piling up on old items
 * (which would keep restyling rows that show something else, and leak).
 */
public final class FollowedProperty {
    private final InvalidationListener listener;
    private ObservableValue<?> followed;

    /** {@code listener} should read the property's value, so that the next change is reported again. */
    public FollowedProperty(InvalidationListener listener) {
        this.listener = listener;
    }

    /** Follows {@code next} from now on (null: nothing), dropping the previous one. */
    public void follow(ObservableValue<?> next) {
        if (followed != null) {
            followed.removeListener(listener);
        }
        followed = next;
        if (next != null) {
            next.addListener(listener);
        }
    }
}
