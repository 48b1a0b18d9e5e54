package dev.runboard.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * How the commands that print captured output ({@code tail}, {@code grep}, {@code diff}) hand it to a terminal.
 * A command's output may hold escape sequences: colours, but also ones that retitle the terminal,
 * rewrite its answerback or reprogram its keys, which a person running {@code runboard tail} on
 * someone else's output never asked for. To a terminal, control characters other than newline
 * and tab, DEL and (in UTF-8) the C1 controls are shown instead of obeyed, as {@code cat -v} and
 * {@code less} show them: {@code ^[} for ESC, {@code ^?} for DEL, {@code <U+009B>} for a C1
 * control. To a pipe or a file the bytes go out untouched, so a script gets exactly what the
 * command wrote.
 */
final class VisibleControls {
    private final boolean toTerminal;

    /** {@code toTerminal}: whether what is printed reaches a terminal (see {@link #forStdout()}). */
    VisibleControls(boolean toTerminal) {
        this.toTerminal = toTerminal;
    }

    /** For the client's stdout: a terminal exactly when stdin and stdout both are one ({@link ClientCall#terminal}). */
    static VisibleControls forStdout() {
        return new VisibleControls(ClientCall.current().terminal());
    }

    /** The text to print: as it is for a pipe or file; controls made visible for a terminal. */
    String text(String s) {
        if (!toTerminal || s.chars().noneMatch(VisibleControls::isControl)) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        s.chars().forEach(c -> {
            if (isControl(c)) {
                sb.append(visible(c));
            } else {
                sb.append((char) c);
            }
        });
        return sb.toString();
    }

    /**
     * A stream to write output bytes to: the bytes as they are for a pipe or file, controls shown
     * for a terminal. Closing it flushes but leaves {@code out} (stdout) open.
     */
    OutputStream bytes(OutputStream out) {
        return toTerminal ? new ShownControls(out) : new Untouched(out);
    }

    private static final class Untouched extends FilterOutputStream {
        Untouched(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }

    private static boolean isControl(int c) {
        return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7F && c <= 0x9F);
    }

    private static String visible(int c) {
        if (c == 0x7F) {
            return "^?";
        }
        if (c < 0x20) {
            return "^" + (char) (c + 64);
        }
        return String.format(java.util.Locale.ROOT, "<U+%04X>", c);
    }

    /**
     * Bytes with controls shown. A C1 control is two bytes in UTF-8 (0xC2, then 0x80-0x9F), which
     * one write may end between: the 0xC2 waits for the next byte. Closing writes what waits and
     * flushes, but leaves the stream underneath open (it is stdout).
     */
    private static final class ShownControls extends FilterOutputStream {
        private boolean afterC2;

        ShownControls(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            int c = b & 0xFF;
            if (afterC2) {
                afterC2 = false;
                if (c >= 0x80 && c <= 0x9F) {
                    out.write(ascii(visible(c)));
                    return;
                }
                if (c != 0xC2 && !(isControl(c) && c <= 0x7F)) {
                    out.write(new byte[] {(byte) 0xC2, (byte) c}); // one write: a writer that decodes each write gets the whole character
                    return;
                }
                out.write(0xC2);
            }
            if (c == 0xC2) {
                afterC2 = true;
            } else if (isControl(c) && c <= 0x7F) {
                out.write(ascii(visible(c)));
            } else {
                out.write(c);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            int plain = off;
            int end = off + len;
            for (int i = off; i < end; i++) {
                int c = b[i] & 0xFF;
                if (afterC2 || c == 0xC2 || (isControl(c) && c <= 0x7F)) {
                    out.write(b, plain, i - plain);
                    write(c);
                    plain = i + 1;
                }
            }
            out.write(b, plain, end - plain);
        }

        @Override
        public void close() throws IOException {
            if (afterC2) {
                afterC2 = false;
                out.write(0xC2);
            }
            out.flush();
        }

        private static byte[] ascii(String s) {
            return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
    }
}
