package dev.runboard.store;

import java.io.IOException;

/**
 * The data dir cannot be used as it is: one line naming the problem and what to do about it, for
 * the CLI to print as a usage error before it starts anything.
 */
public final class DataDirException extends IOException {
    private static final long serialVersionUID = 1L;

    public DataDirException(String message) {
        super(message);
    }
}
