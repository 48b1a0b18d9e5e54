package dev.runboard.store;

import java.io.IOException;

/** Persisting an artifact failed; {@link #code()} says why in a stable word, the message in words. */
public final class ArtifactException extends IOException {
    private static final long serialVersionUID = 1L;
    private final ArtifactErrorCode code;

    public ArtifactException(ArtifactErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public static ArtifactException of(String what, IOException cause) {
        ArtifactErrorCode code = ArtifactErrorCode.of(cause);
        return new ArtifactException(code, what + ": " + describe(code, cause), cause);
    }

    private static String describe(ArtifactErrorCode code, IOException e) {
        return switch (code) {
            case DISK_FULL -> "the disk is full (" + e.getMessage() + ")";
            case PERMISSION_DENIED -> "permission denied (" + e.getMessage() + ")";
            case NOT_FOUND -> "file not found (" + e.getMessage() + ")";
            case IO_ERROR -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        };
    }

    public ArtifactErrorCode code() {
        return code;
    }
}
