package dev.runboard.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Feeds a session's stdin from a stream until it ends, then closes it: exec's input for a PTY session. */
final class StdinCopier {
    private StdinCopier() {
    }

    static void start(InputStream from, OutputStream to, String sessionId) {
        if (to == null) {
            return;
        }
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (to) {
                for (int n; (n = from.read(buf)) >= 0; ) {
                    to.write(buf, 0, n);
                    to.flush();
                }
            } catch (IOException ended) {
                // the session ended, or our input was closed: nothing more to copy
            }
        }, "runboard-stdin-" + sessionId);
        t.setDaemon(true);
        t.start();
    }
}
