package dev.runboard.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The CLI's standard output: a PrintWriter for its text, and the byte stream under it for JSON
 * already made as UTF-8 (exec's final snapshot), which would otherwise be decoded to a String and
 * encoded back, character by character, just after the command ended (docs/BENCHMARKS.md §10,
 * round 14).
 */
final class ByteWriter extends PrintWriter {
    private final OutputStream bytes;

    ByteWriter(OutputStream bytes) {
        super(bytes, true);
        this.bytes = bytes;
    }

    /** To a stream in UTF-8 whatever this JVM's locale (the supervisor's, printing for a thin client). */
    ByteWriter(OutputStream bytes, java.nio.charset.Charset charset) {
        super(new java.io.OutputStreamWriter(bytes, charset), true);
        this.bytes = bytes;
    }

    /**
     * The bytes under {@code out}, for a command that prints output as it was captured (tail): this
     * JVM's stdout, or the thin client's stream in the supervisor. Text printed before goes first. Under
     * any other writer (a test's), the bytes are decoded as UTF-8 into it.
     */
    static PrintStream bytesOf(PrintWriter out) {
        out.flush();
        if (out instanceof ByteWriter w) {
            return new PrintStream(w.bytes, true, StandardCharsets.UTF_8);
        }
        return new PrintStream(new java.io.ByteArrayOutputStream() {
            @Override
            public void flush() {
                out.print(toString(StandardCharsets.UTF_8));
                out.flush();
                reset();
            }
        }, true, StandardCharsets.UTF_8);
    }

    /** Prints a line given as UTF-8 bytes: as they are to a {@link ByteWriter}, as text to any other writer. */
    static void printLine(PrintWriter out, byte[] utf8) {
        if (!(out instanceof ByteWriter w)) {
            out.println(new String(utf8, StandardCharsets.UTF_8));
            out.flush();
            return;
        }
        w.flush(); // text printed before goes first
        try {
            w.bytes.write(utf8);
            w.bytes.write('\n');
            w.bytes.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
