package dev.runboard.artifact;

/**
 * One line of a file being compared: its bytes (without the newline), whether a newline ended it,
 * and the key lines are compared by (a hash of the bytes, or of the bytes with their volatile parts
 * masked, plus that text's length so two lines must collide on both to pass as equal).
 */
public record DiffLine(byte[] text, boolean newline, long hash, int keyLength) {

    public boolean sameAs(DiffLine other) {
        return hash == other.hash && keyLength == other.keyLength;
    }
}
