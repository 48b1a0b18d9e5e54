package dev.runboard.store;

import java.io.IOException;

/**
 * A session record that is well-formed JSON but not a record runboard can use: a field missing,
 * null or out of range, an id that is not its folder's. The store moves it aside like unreadable JSON.
 */
public final class CorruptRecordException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptRecordException(String message) {
        super(message);
    }
}
