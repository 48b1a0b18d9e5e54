package dev.runboard.store;

import java.io.IOException;

/**
 * A session record written by a newer runboard, in a schema this one does not know. It is left
 * where it is, untouched, for the runboard that wrote it.
 */
public final class NewerRecordException extends IOException {
    private static final long serialVersionUID = 1L;

    public NewerRecordException(String message) {
        super(message);
    }
}
