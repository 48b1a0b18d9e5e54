package dev.runboard.ui.sessions;

/**
 * Row values that change while a session runs and that a table sort can read; the view model
 * re-sorts on their changes only when the current order reads them.
 */
public enum LiveColumn {
    /** The last line of output. */
    LAST_LINE,
    /** Elapsed, output size, CPU, RSS. */
    COUNTERS
}
