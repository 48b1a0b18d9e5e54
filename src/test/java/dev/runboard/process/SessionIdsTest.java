package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionId;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SessionIdsTest {
    /** How the stamp was made before it was written by hand. */
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    @Test
    void stampsAsTheFormatterDidWithASixDigitHexSuffix() {
        Random random = new Random(16);
        long from = Instant.parse("1970-01-01T00:00:00Z").getEpochSecond();
        long to = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int n = 0; n < 50_000; n++) {
            long second = n < 10 ? to - n : from + 1000 + (long) (random.nextDouble() * (to - from - 1000));
            Instant at = Instant.ofEpochSecond(second, random.nextInt(1_000_000_000));
            String id = SessionIds.next(Clock.fixed(at, ZoneOffset.UTC));
            assertEquals(STAMP.format(at), id.substring(0, 15), id);
            assertTrue(id.substring(15).matches("-[0-9a-f]{6}"), id);
            assertTrue(SessionId.isValid(id), id);
        }
    }

    @Test
    void idsOfOneSecondDiffer() {
        Clock clock = Clock.fixed(Instant.parse("2026-12-02T04:30:00Z"), ZoneOffset.UTC);
        Set<String> ids = new HashSet<>();
        for (int n = 0; n < 100; n++) {
            ids.add(SessionIds.next(clock));
        }
        assertTrue(ids.size() >= 99, ids.size() + " distinct of 100");
    }
}
