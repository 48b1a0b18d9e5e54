package dev.runboard.testing;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for what a test watches (a row's status, a file, a /proc entry) by asking again and again,
 * less often the longer it takes: 5 ms, then twice as long each time up to 50 ms. TestFX's
 * {@code WaitForAsyncUtils.waitFor} and a fixed 10 ms pause ask 100 times a second for as long as
 * the wait lasts, and many conditions cost a request to a supervisor or a trip to the FX thread; on
 * a loaded machine the waits grow, so do the asks, and the suite's two cores spent a part of their
 * time asking. A change is seen at most 50 ms late.
 */
public final class Poll {
    private static final long FIRST_NANOS = Duration.ofMillis(5).toNanos();
    private static final long MAX_NANOS = Duration.ofMillis(50).toNanos();

    private Poll() {
    }

    /** {@code WaitForAsyncUtils.waitFor}'s contract: a condition that throws counts as not yet true. */
    public static void waitFor(long timeout, TimeUnit unit, Callable<Boolean> condition) throws TimeoutException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (int round = 0; !holds(condition); round++) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("the condition did not hold within " + timeout + " " + unit.name().toLowerCase(java.util.Locale.ROOT));
            }
            pause(round);
        }
    }

    /** The pause before the condition is asked again, after {@code round} asks that found it false. */
    public static void pause(int round) {
        LockSupport.parkNanos(Math.min(MAX_NANOS, FIRST_NANOS << Math.min(round, 10)));
    }

    private static boolean holds(Callable<Boolean> condition) {
        try {
            return Boolean.TRUE.equals(condition.call());
        } catch (Exception notYet) {
            return false;
        }
    }
}
