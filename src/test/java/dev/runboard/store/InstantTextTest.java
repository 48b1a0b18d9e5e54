package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** InstantText reads what Instant.toString writes as Instant.parse does, and nothing else. */
class InstantTextTest {
    @Test
    void everyInstantToStringWritesIsReadAsInstantParseReadsIt() {
        Random random = new Random(16);
        long from = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
        long to = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 200_000; i++) {
            long second = from + (long) (random.nextDouble() * (to - from));
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant at = Instant.ofEpochSecond(second, nanos);
            String text = at.toString();
            assertEquals(Instant.parse(text), InstantText.canonical(text), text);
            assertEquals(text, InstantText.format(at));
        }
    }

    /** The days where a calendar turns (leap days, years, eras), the ends of the range and the years beyond it. */
    @Test
    void writesWhatInstantToStringWritesAtEveryTurnOfTheCalendar() {
        for (String t : List.of("0000-01-01T00:00:00Z", "0000-02-29T23:59:59.999999999Z", "1600-02-29T12:00:00Z",
                "1700-03-01T00:00:00Z", "1900-02-28T00:00:00.5Z", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00:00Z",
                "2000-02-29T00:00:00.000001Z", "2100-03-01T00:00:00Z", "2200-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z")) {
            Instant at = Instant.parse(t);
            for (long step : new long[] {-86_400, -1, 0, 1, 86_400}) {
                assertEquals(at.plusSeconds(step).toString(), InstantText.format(at.plusSeconds(step)));
            }
        }
        assertEquals(Instant.MIN.toString(), InstantText.format(Instant.MIN));
        assertEquals(Instant.MAX.toString(), InstantText.format(Instant.MAX));
        assertEquals("+10000-01-01T00:00:00Z", InstantText.format(Instant.parse("+10000-01-01T00:00:00Z")));
    }

    @Test
    void fractionsOfAnyLengthAreReadAsInstantParseReadsThem() {
        for (String fraction : List.of("1", "12", "1234", "12345", "1234567", "12345678", "000000001")) {
            String text = "2026-12-02T13:34:04." + fraction + "Z";
            assertEquals(Instant.parse(text), InstantText.canonical(text), text);
        }
    }

    @Test
    void anythingElseIsLeftToOthers() {
        for (String text : List.of("2026-12-02T13:34:04+01:00", "2026-12-02t13:34:04z", "2026-12-02T23:59:60Z",
                "+10000-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-12-02T24:00:00Z",
                "2026-12-02T13:34:04.Z", "2026-12-02T13:34:04.1234567890Z", "2026-12-02 13:34:04Z", "2026-12-02T13:34Z",
                "2026-1a-02T13:34:04Z", "", "Z")) {
            assertNull(InstantText.canonical(text), text);
        }
    }
}
