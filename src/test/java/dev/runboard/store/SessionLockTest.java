package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's lock, as another process sees it. On Linux a file lock is the process's, and closing
 * any channel on the file drops it: asking again in the same JVM (a second tryAcquire, isHeld) opened
 * and closed a channel and released the lock its owner held, and another runboard took the running
 * session over (CI saw the window's engine adopt a session the supervisor ran).
 */
class SessionLockTest {
    @TempDir
    Path dir;

    /** "held" or "free": what a write lock over the whole file from another process (perl, fcntl as the JDK) finds. */
    private static String seenFromAnotherProcess(Path file) throws Exception {
        String perl = "use Fcntl; open(my $f, '+<', $ARGV[0]) or die $!;"
                + " my $l = pack('s s x4 q q i x4', F_WRLCK, 0, 0, 0, 0); print fcntl($f, F_SETLK, $l) ? 'free' : 'held'";
        Process p = new ProcessBuilder("perl", "-e", perl, file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void askingAgainInTheSameJvmNeverReleasesTheLock() throws Exception {
        Path file = dir.resolve("lock");
        try (SessionLock held = SessionLock.tryAcquire(file).orElseThrow()) {
            assertEquals("held", seenFromAnotherProcess(file));
            assertTrue(SessionLock.tryAcquire(file).isEmpty(), "held by this JVM: not given twice");
            assertTrue(SessionLock.isHeld(file));
            assertEquals("held", seenFromAnotherProcess(file), "still held after both asks");
        }
        assertEquals("free", seenFromAnotherProcess(file), "let go on close");
        assertTrue(!SessionLock.isHeld(file));
        SessionLock.tryAcquire(file).orElseThrow().close();
    }
}
