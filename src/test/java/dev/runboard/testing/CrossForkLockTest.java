package dev.runboard.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The locks hold across processes, as Surefire's forks are: another JVM finds a lock busy while a class
 * marked {@link Exclusive} runs, or while {@link CrossForkLock#hold} holds it, and free after.
 */
@Exclusive("cross-fork-lock-test")
class CrossForkLockTest {
    @Test
    void anExclusiveClassHoldsItsLockWhileItRuns() throws Exception {
        assertEquals("busy", probe("cross-fork-lock-test"));
    }

    @Test
    void aHeldStepIsBusyForOtherProcessesUntilClosed() throws Exception {
        try (AutoCloseable held = CrossForkLock.hold("cross-fork-lock-step")) {
            assertEquals("busy", probe("cross-fork-lock-step"));
        }
        assertEquals("free", probe("cross-fork-lock-step"));
    }

    /** What another JVM finds when it tries the lock {@code name}. */
    private static String probe(String name) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), LockProbe.class.getName(),
                CrossForkLock.file(name).toString()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return said;
    }
}
