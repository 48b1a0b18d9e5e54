package dev.runboard.session;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * One part of an {@link OutputPreview} (its head or its tail): its bytes as they are, or deflated
 * once the session has finished ({@link OutputPreview#packed()}). Immutable; {@link #bytes()} hands
 * out a copy.
 */
final class PreviewPart {
    private static final double WORTH_PACKING = 0.9;
    private final byte[] stored;
    private final int length;
    private final boolean deflated;

    private PreviewPart(byte[] stored, int length, boolean deflated) {
        this.stored = stored;
        this.length = length;
        this.deflated = deflated;
    }

    static PreviewPart plain(byte[] bytes) {
        return new PreviewPart(bytes, bytes.length, false);
    }

    /** A part of this length whose bytes are not held (a {@link OutputPreview#summary}'s). */
    static PreviewPart elsewhere(int length) {
        return new PreviewPart(new byte[0], length, false);
    }

    int length() {
        return length;
    }

    int held() {
        return stored.length;
    }

    byte[] bytes() {
        return deflated ? inflate() : stored.clone();
    }

    PreviewPart packed() {
        if (deflated || length == 0) {
            return this;
        }
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            deflater.setInput(stored);
            deflater.finish();
            byte[] out = new byte[(int) (length * WORTH_PACKING)];
            int n = 0;
            while (!deflater.finished() && n < out.length) {
                n += deflater.deflate(out, n, out.length - n);
            }
            return deflater.finished() ? new PreviewPart(Arrays.copyOf(out, n), length, true) : this;
        } finally {
            deflater.end();
        }
    }

    private byte[] inflate() {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(stored);
            byte[] out = new byte[length];
            int n = 0;
            while (n < length) {
                int got = inflater.inflate(out, n, length - n);
                if (got == 0 && (inflater.finished() || inflater.needsInput())) {
                    break;
                }
                n += got;
            }
            if (n != length) {
                throw new IllegalStateException("a packed preview inflated to " + n + " of " + length + " bytes");
            }
            return out;
        } catch (DataFormatException e) {
            throw new IllegalStateException("a packed preview is corrupt", e);
        } finally {
            inflater.end();
        }
    }
}
