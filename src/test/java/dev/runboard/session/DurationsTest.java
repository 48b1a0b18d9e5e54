package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one duration grammar of DESIGN.md's Contract. */
class DurationsTest {

    @Test
    void readsTheContractForms() {
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("30s"));
        assertEquals(Duration.ofMinutes(5), Durations.parse("5m"));
        assertEquals(Duration.ofMinutes(90), Durations.parse("1h30m"));
        assertEquals(Duration.ofMinutes(90), Durations.parse(" 1h 30m "));
        assertEquals(Duration.ofMinutes(90), Durations.parse("1H30M"));
        assertEquals(Duration.ofMillis(3_723_004), Durations.parse("1h2m3s4ms"));
        assertEquals(Duration.ofDays(2), Durations.parse("2d"));
        assertEquals(Duration.ofHours(36), Durations.parse("1d12h"));
        assertEquals(Duration.ofHours(36), Durations.parse("1.5D"));
    }

    /** The longest limit, 365 days, is reached in every unit, and one step beyond it is refused by the field's range check. */
    @Test
    void theLongestLimitIsReachedInEveryUnit() {
        for (String limit : List.of("365d", "8760h", "525600m", "31536000s", "31536000", "31536000000ms", "364d24h", "P365D")) {
            assertEquals(SessionSpec.MAX_TIMEOUT, SessionSpec.checkTimeout(Durations.parse(limit), "--timeout"), limit);
        }
        for (String above : List.of("366d", "365d1ms", "8761h", "525601m", "31536001s", "31536001")) {
            InvalidSpecException e = assertThrows(InvalidSpecException.class,
                    () -> SessionSpec.checkTimeout(Durations.parse(above), "--timeout"), above);
            assertTrue(e.getMessage().startsWith("--timeout must be at most 365 days, got "), e.getMessage());
        }
    }

    @Test
    void aBareNumberIsSecondsWithAFractionAllowed() {
        assertEquals(Duration.ofSeconds(90), Durations.parse("90"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5"));
        assertEquals(Duration.ofMillis(200), Durations.parse("0.2"));
        assertEquals(Duration.ZERO, Durations.parse("0"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5s"), "a fraction in a part too");
        assertEquals(Duration.ofMinutes(90), Durations.parse("1.5h"));
        assertEquals(Duration.ofMillis(1), Durations.parse("0.0005"), "rounded to whole milliseconds");
    }

    /** Whole seconds are read without the grammar's regex (exec parses its default grace on every run), to the same answer. */
    @Test
    void aBareWholeNumberReadsAsTheGrammarReadsIt() {
        assertEquals(Duration.ofSeconds(7), Durations.parse("007"));
        assertEquals(Duration.ofSeconds(42), Durations.parse(" 42 "));
        assertEquals(Duration.ofSeconds(999_999_999), Durations.parse("999999999"));
        assertEquals(Duration.ofSeconds(2), Durations.parse("2.0"));
        assertTrue(message("9999999999").contains("too long"), message("9999999999"));
    }

    @Test
    void readsIsoAsJavaWritesIt() {
        assertEquals(Duration.ofSeconds(30), Durations.parse("PT30S"));
        assertEquals(Duration.ofDays(2), Durations.parse("P2D"));
    }

    @Test
    void blankIsNoneOnlyWhereOptional() {
        assertNull(Durations.parseOptional(null));
        assertNull(Durations.parseOptional("  "));
        assertEquals(Duration.ofMinutes(5), Durations.parseOptional("5m"));
        assertTrue(message("").startsWith("empty duration"), message(""));
    }

    @Test
    void refusesWithASentenceForPeople() {
        for (String bad : List.of("soon", "5 parsecs", "m5", "1h30", "NaN", "Infinity", "inf", "1e3", "0x10", "5w", "1,5",
                ".5", "5.", "PT", "P1Y")) {
            assertTrue(message(bad).startsWith("'" + bad + "' is not a duration (write e.g. 500ms, 30s, 5m, 1h30m or 2d;"),
                    bad + ": " + message(bad));
        }
        assertEquals("'-5' is negative: a duration cannot be", message("-5"));
        assertEquals("'PT-5S' is negative: a duration cannot be", message("PT-5S"));
        assertTrue(message("30m1h").contains("give each unit once, largest first"), message("30m1h"));
        assertTrue(message("1h1h").contains("give each unit once"), message("1h1h"));
    }

    @Test
    void nothingParsedOverflowsNanoseconds() {
        for (String huge : List.of("99999999999999999999", "9223372036854775807", "9.2e9", "9200000000", "876001h",
                "99999999999999999999ms", "PT2562047788015215H")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(huge), huge);
            assertTrue(e.getMessage().contains("too long") || e.getMessage().contains("not a duration"), e.getMessage());
        }
        Durations.LONGEST.toNanos();
        assertEquals(Durations.LONGEST, Durations.parse(Durations.LONGEST.toSeconds() + ""));
    }

    @Test
    void formatsTheShortFormThatReadsBack() {
        assertEquals("1h30m", Durations.format(Duration.ofMinutes(90)));
        assertEquals("45s", Durations.format(Duration.ofSeconds(45)));
        assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
        assertEquals("0s", Durations.format(Duration.ZERO));
        assertEquals("48h", Durations.format(Duration.ofDays(2)));
        assertEquals("", Durations.format(null));
        for (Duration d : List.of(Duration.ofMillis(1), Duration.ofMillis(999), Duration.ofSeconds(1), Duration.ofMinutes(61),
                Duration.ofHours(8760), Duration.ofMillis(3_600_500), Duration.ofSeconds(3661))) {
            assertEquals(d, Durations.parse(Durations.format(d)), Durations.format(d));
        }
    }

    @Test
    void describesLimitsInWords() {
        assertEquals("365 days", Durations.describe(Duration.ofDays(365)));
        assertEquals("1 hour", Durations.describe(Duration.ofHours(1)));
        assertEquals("1h30m", Durations.describe(Duration.ofMinutes(90)));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> Durations.parse(text), text).getMessage();
    }
}
