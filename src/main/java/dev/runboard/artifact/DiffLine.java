package dev.runboard.artifact;

import java.io.IOException;
import java.io.OutputStream;

/**
 * One line of a file being compared: the key lines are compared by (a hash of the bytes, or of the
 * bytes with their volatile parts masked, plus that text's length so two lines must collide on
 * both to pass as equal), whether a newline ended it, and its bytes to print. A line of up to
 * {@link DiffLines#KEPT_TEXT} bytes carries them; a longer one is read back from its file when it
 * is printed, so that the thousands of lines a comparison holds at once stay small however long
 * each is.
 */
public final class DiffLine {
    private final byte[] text;
    private final DiffLines file;
    private final long offset;
    private final long size;
    private final boolean newline;
    private final long hash;
    private final long keyLength;

    private DiffLine(byte[] text, DiffLines file, long offset, long size, boolean newline, long hash, long keyLength) {
        this.text = text;
        this.file = file;
        this.offset = offset;
        this.size = size;
        this.newline = newline;
        this.hash = hash;
        this.keyLength = keyLength;
    }

    static DiffLine kept(byte[] text, boolean newline, long hash, long keyLength) {
        return new DiffLine(text, null, -1, text.length, newline, hash, keyLength);
    }

    static DiffLine inFile(DiffLines file, long offset, long size, boolean newline, long hash, long keyLength) {
        return new DiffLine(null, file, offset, size, newline, hash, keyLength);
    }

    public boolean sameAs(DiffLine other) {
        return hash == other.hash && keyLength == other.keyLength;
    }

    public boolean newline() {
        return newline;
    }

    public long hash() {
        return hash;
    }

    /** The line's length in bytes, without its newline. */
    public long size() {
        return size;
    }

    /** Writes the line's bytes (without its newline); a long one streams from its file. */
    public void writeTo(OutputStream out) throws IOException {
        if (text != null) {
            out.write(text);
        } else {
            file.copy(offset, size, out);
        }
    }
}
