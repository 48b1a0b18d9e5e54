package dev.runboard.testing;

import dev.runboard.session.SessionSpec;
import java.time.Duration;

/**
 * Lowers the shortest deadline a spec accepts (one second for users) while a test runs, in this JVM
 * only: an in-process engine's deadline race then takes a few hundred milliseconds, not seconds.
 * Supervisors and {@code bin/runboard} JVMs the test starts keep the real floor.
 */
public final class ShortDeadlines implements AutoCloseable {
    private ShortDeadlines() {
    }

    public static ShortDeadlines allow(Duration floor) {
        System.setProperty(SessionSpec.TEST_MIN_TIMEOUT_PROPERTY, Long.toString(floor.toMillis()));
        return new ShortDeadlines();
    }

    @Override
    public void close() {
        System.clearProperty(SessionSpec.TEST_MIN_TIMEOUT_PROPERTY);
    }
}
