package dev.runboard.session;

/**
 * A value whose longest text can be handed over as UTF-8 bytes without a String of it: a JSON
 * writer that writes bytes asks here before it calls the accessor, and escapes the bytes as they
 * are. What a whole string cost the end of a short exec is in docs/BENCHMARKS.md §10, round 14.
 */
public interface TextAsUtf8 {
    /**
     * The UTF-8 encoding of what the accessor of this name would return, or null when it has no
     * such bytes (the writer then calls the accessor).
     */
    byte[] utf8Of(String accessor);
}
