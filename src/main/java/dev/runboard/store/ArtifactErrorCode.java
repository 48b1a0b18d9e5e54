package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonValue;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;

/** Why an artifact could not be persisted: a stable code scripts can match on. */
public enum ArtifactErrorCode {
    DISK_FULL, PERMISSION_DENIED, NOT_FOUND, IO_ERROR;

    @JsonValue
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Classifies an I/O failure; the JDK reports ENOSPC only through the message text. */
    public static ArtifactErrorCode of(IOException e) {
        if (e instanceof NoSuchFileException) {
            return NOT_FOUND;
        }
        if (e instanceof AccessDeniedException) {
            return PERMISSION_DENIED;
        }
        String text = (e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason() : "")
                + " " + e.getMessage();
        if (text.contains("No space left") || text.contains("Disk quota exceeded")) {
            return DISK_FULL;
        }
        if (text.contains("Permission denied") || text.contains("Read-only file system")) {
            return PERMISSION_DENIED;
        }
        return IO_ERROR;
    }
}
