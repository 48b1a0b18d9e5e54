package dev.runboard.store;

import java.io.IOException;

/** The store could not write or read something; {@link #code()} classifies it like artifact errors. */
public final class StoreException extends IOException {
    private static final long serialVersionUID = 1L;
    private final ArtifactErrorCode code;

    public StoreException(String message, IOException cause) {
        super(message + ": " + describe(cause), cause);
        this.code = ArtifactErrorCode.of(cause);
    }

    private static String describe(IOException e) {
        return switch (ArtifactErrorCode.of(e)) {
            case DISK_FULL -> "the disk is full";
            case PERMISSION_DENIED -> "permission denied (" + e.getMessage() + ")";
            case NOT_FOUND -> "not found (" + e.getMessage() + ")";
            case IO_ERROR -> String.valueOf(e.getMessage());
        };
    }

    public ArtifactErrorCode code() {
        return code;
    }
}
