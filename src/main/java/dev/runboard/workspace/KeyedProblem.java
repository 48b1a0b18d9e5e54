package dev.runboard.workspace;

/**
 * A record's check that is about one key inside the mapping being read ({@code depends_on}'s
 * {@code db}, a {@code success_exit_codes} item): the load error then points at that key's line,
 * not at the command's, which for a command of twenty lines sent people looking in the wrong place.
 */
final class KeyedProblem extends IllegalArgumentException {
    private final String[] keys;

    /** {@code keys}: the path from the mapping being built down to the key at fault, e.g. "depends_on", "db". */
    KeyedProblem(String message, String... keys) {
        super(message);
        this.keys = keys.clone();
    }

    /** {@code at} with the keys appended. */
    com.fasterxml.jackson.core.JsonPointer below(com.fasterxml.jackson.core.JsonPointer at) {
        com.fasterxml.jackson.core.JsonPointer p = at;
        for (String k : keys) {
            p = p.appendProperty(k);
        }
        return p;
    }
}
