package dev.runboard.ui;

import dev.runboard.ui.common.Formats;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FormatsTest {
    @Test
    void elapsedShowsTenthsOnlyWhenTheyAreKnown() {
        assertEquals("0.4 s", Formats.elapsed(Duration.ofMillis(400)));
        assertEquals("6.2 s", Formats.elapsed(Duration.ofMillis(6_240)));
        assertEquals("6 s", Formats.elapsed(Duration.ofSeconds(6)), "a running session's whole seconds");
        assertEquals("0 s", Formats.elapsed(Duration.ZERO));
        assertEquals("12 s", Formats.elapsed(Duration.ofMillis(12_900)));
        assertEquals("3m 05s", Formats.elapsed(Duration.ofSeconds(185)));
        assertEquals("2h 07m", Formats.elapsed(Duration.ofMinutes(127)));
    }
}
