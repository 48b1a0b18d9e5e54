package dev.runboard.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Line keys: what is masked, and that a line read in pieces (a long line always is) gets the key it would get whole. */
class VolatileTextTest {
    private static final String ALPHABET = "0123456789abcdefABCDEFxX@. msunihecS\t:-#";

    @Test
    void aLinesKeyDoesNotDependOnWhereItsBytesWereCutNorOnWhetherItCameWhole() {
        Random random = new Random(7);
        for (int round = 0; round < 100_000; round++) {
            byte[] line = new byte[random.nextInt(40)];
            for (int i = 0; i < line.length; i++) {
                // Mostly digits and hex letters, so that runs, dots, units and address marks meet the cuts.
                line[i] = (byte) ALPHABET.charAt(random.nextInt(random.nextBoolean() ? 12 : ALPHABET.length()));
            }
            for (boolean ignoreVolatile : new boolean[] {true, false}) {
                String what = new String(line, StandardCharsets.ISO_8859_1) + (ignoreVolatile ? " (ignoring volatile)" : "");
                assertEquals(key(ignoreVolatile, line, line.length + 1, random), key(ignoreVolatile, line, 1 + random.nextInt(4), random),
                        what);
                VolatileText whole = new VolatileText(ignoreVolatile);
                long hash = whole.whole(line, 0, line.length); // the one-pass key of a line that fits the buffer
                assertEquals(key(ignoreVolatile, line, 1 + random.nextInt(4), random), List.of(hash, whole.length()), what);
            }
        }
    }

    @Test
    void numbersDurationsAndAddressesAreMaskedWordsAreNot() {
        assertEquals(key("took 12ms at 09:41:07"), key("took 140 ms at 17:03:55"));
        assertEquals(key("Cache@deadbeef 0xabc"), key("Cache@c0ffee 0xfff"));
        assertNotEquals(key("BUILD added"), key("BUILD faded"));
        assertNotEquals(key("12 tests"), key("12 tasks"), "a word after a number is no unit");
    }

    private static List<Long> key(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return key(true, b, b.length + 1, new Random(1));
    }

    /** The key (hash, length) of {@code line} fed in pieces of at most {@code piece} bytes. */
    private static List<Long> key(boolean ignoreVolatile, byte[] line, int piece, Random random) {
        VolatileText key = new VolatileText(ignoreVolatile);
        key.begin();
        for (int at = 0; at < line.length; ) {
            int to = Math.min(line.length, at + 1 + random.nextInt(piece));
            key.add(line, at, to);
            at = to;
        }
        long hash = key.finish();
        return List.of(hash, key.length());
    }
}
