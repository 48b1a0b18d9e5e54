package dev.runboard.testing;

/**
 * How large the scale, fuzz and race loops run. {@code ./mvnw test} runs them at a fifth of their
 * full size (never fewer than 10 rounds of a race), so the whole suite stays within minutes on two
 * cores; the {@code stress} profile ({@code ./mvnw test -Pstress}, also run by .ci/run) sets
 * {@code runboard.test.scale=full} and runs the classes tagged {@link Stress} at full size.
 * Every class runs in both: only the counts change.
 */
public final class TestScale {
    /** The property the stress profile sets; {@code full} or {@code fast} (the default). */
    public static final String PROPERTY = "runboard.test.scale";
    private static final int FAST_DIVISOR = 5;
    private static final int MIN_RACE_ROUNDS = 10;

    private TestScale() {
    }

    public static boolean full() {
        return "full".equals(System.getProperty(PROPERTY, "fast"));
    }

    /** A loop's size: {@code fullSize} under the stress profile, a fifth of it (at least 1) otherwise. */
    public static int size(int fullSize) {
        return full() ? fullSize : Math.max(1, fullSize / FAST_DIVISOR);
    }

    /** A race's round count: as {@link #size}, but never below 10 rounds (or the full count, if smaller). */
    public static int races(int fullRounds) {
        return full() ? fullRounds : Math.min(fullRounds, Math.max(MIN_RACE_ROUNDS, fullRounds / FAST_DIVISOR));
    }

    /** The size this run uses, as a test's message names it: "2000 of 10000 (fast suite)". */
    public static String describe(int used, int fullSize) {
        return used == fullSize ? used + " (full size)" : used + " of " + fullSize + " (fast suite; -Pstress runs all)";
    }
}
