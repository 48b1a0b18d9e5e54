package dev.runboard.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The header lines of the host helper's answers (a poll's frames, the stream's frames, a look's files). */
final class HelperLines {
    private HelperLines() {
    }

    /**
     * The next line, without its newline; null at the end of the answer; an IOException naming {@code what} when the
     * connection ended in the middle of one (its bytes read unbuffered: what follows a header is the caller's).
     */
    static String read(InputStream in, String what) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            b.write(c);
        }
        if (c < 0 && b.size() == 0) {
            return null;
        }
        if (c < 0) {
            throw new IOException("the connection ended in the middle of " + what);
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
