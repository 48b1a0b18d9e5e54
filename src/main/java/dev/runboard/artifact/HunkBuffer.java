package dev.runboard.artifact;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A hunk's body while its line counts are still growing (the header, which needs them, comes
 * first): in memory up to {@link #IN_MEMORY} bytes, then in a temporary file, so that a change of
 * gigabytes is still one exact hunk without being held in memory.
 */
final class HunkBuffer extends OutputStream {
    static final int IN_MEMORY = 8 << 20;

    private final ByteArrayOutputStream memory = new ByteArrayOutputStream();
    private Path spill;
    private OutputStream spillOut;

    @Override
    public void write(int b) throws IOException {
        target(1).write(b);
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws IOException {
        target(len).write(bytes, off, len);
    }

    /** Where {@code len} more bytes go: memory, or the spill file once they would not fit. */
    private OutputStream target(int len) throws IOException {
        if (spillOut == null && memory.size() + len > IN_MEMORY) {
            spill = Files.createTempFile("runboard-diff", ".hunk");
            spillOut = new java.io.BufferedOutputStream(Files.newOutputStream(spill), 1 << 16);
            memory.writeTo(spillOut);
            memory.reset();
        }
        return spillOut != null ? spillOut : memory;
    }

    /** Copies the body to {@code out} and empties the buffer (removing any spill file). */
    void drainTo(OutputStream out) throws IOException {
        if (spillOut == null) {
            memory.writeTo(out);
            memory.reset();
            return;
        }
        try {
            spillOut.close();
            try (InputStream in = Files.newInputStream(spill)) {
                in.transferTo(out);
            }
        } finally {
            Files.deleteIfExists(spill);
            spill = null;
            spillOut = null;
        }
    }
}
