package dev.runboard.workspace;

/** {@code groups: {NAME: {parallel: N}}}: at most N of the group's sessions run at once, the rest wait queued. */
public record GroupLimit(int parallel) {
    public GroupLimit {
        if (parallel < 1) {
            throw new IllegalArgumentException("'parallel' must be 1 or more");
        }
    }
}
