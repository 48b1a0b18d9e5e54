package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Sizes: K, M, G, T are KiB, MiB, GiB, TiB, read and printed as such. */
class SizesTest {

    @Test
    void readsBinaryUnits() {
        assertEquals(500L << 20, Sizes.parse("500M"));
        assertEquals(2L << 30, Sizes.parse("2G"));
        assertEquals(1536L << 20, Sizes.parse("1.5g"));
        assertEquals(512L << 10, Sizes.parse("512KiB"));
        assertEquals(64L << 10, Sizes.parse("64KB"));
        assertEquals(64L << 10, Sizes.parse("64 k"));
        assertEquals(3L << 40, Sizes.parse("3T"));
        assertEquals(4096, Sizes.parse("4096"));
        assertEquals(4096, Sizes.parse("4096B"));
        assertEquals(0, Sizes.parse("0"));
    }

    /** A bare number of bytes is read without the grammar's regex (exec parses its default preview size on every run). */
    @Test
    void aBareNumberReadsAsTheGrammarReadsIt() {
        assertEquals(65536, Sizes.parse("65536"));
        assertEquals(65536, Sizes.parse(" 065536 "));
        assertEquals(999_999_999_999_999_999L, Sizes.parse("999999999999999999"));
        assertEquals(Long.MAX_VALUE, Sizes.parse("9223372036854775807"));
        assertEquals("'9223372036854775808' is too large for a size",
                assertThrows(IllegalArgumentException.class, () -> Sizes.parse("9223372036854775808")).getMessage());
    }

    @Test
    void refusesWithASentence() {
        for (String bad : List.of("lots", "", "-1", "1e3", "NaN", "5P", "5 MB/s", "M")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(bad), bad);
            assertTrue(e.getMessage().contains("is not a size (write e.g. 500M or 2G: K, M, G, T are KiB, MiB, GiB, TiB"),
                    e.getMessage());
        }
        IllegalArgumentException huge = assertThrows(IllegalArgumentException.class, () -> Sizes.parse("99999999T"));
        assertEquals("'99999999T' is too large for a size", huge.getMessage());
    }

    @Test
    void printsInTheUnitGiven() {
        assertEquals("50 MiB", Sizes.format(Sizes.parse("50M")));
        assertEquals("1.5 GiB", Sizes.format(Sizes.parse("1.5G")));
        assertEquals("512 KiB", Sizes.format(Sizes.parse("512K")));
        assertEquals("800 B", Sizes.format(800));
        assertEquals("1 MiB", Sizes.format((1L << 20) - 10), "1023.99 KiB rounds up to the next unit");
        assertEquals("60.2 MiB", Sizes.format(63_123_456));
        assertEquals("1 PiB", Sizes.format(Sizes.PIB));
        assertEquals("8192 PiB", Sizes.format(Long.MAX_VALUE));
    }

    @Test
    void theShortFormReadsBack() {
        for (long n : List.of(0L, 1L, 1023L, 1024L, 50L << 20, 3L << 30, 1536L << 20, Sizes.TIB)) {
            assertEquals(n, Sizes.parse(Sizes.formatShort(n)), Sizes.formatShort(n));
        }
        assertEquals("50M", Sizes.formatShort(50L << 20));
    }
}
