package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Any bytes survive text and back; UTF-8 reads as UTF-8; what Java would mangle is flagged and shown as Java shows it. */
class RawTextTest {
    @Test
    void everyByteSequenceComesBackAsItWas() {
        Random random = new Random(42);
        for (int round = 0; round < 2000; round++) {
            byte[] bytes = new byte[random.nextInt(24)];
            random.nextBytes(bytes);
            assertArrayEquals(bytes, RawText.encode(RawText.decode(bytes)), "round " + round);
        }
    }

    @Test
    void utf8IsReadAsUtf8AndOtherBytesAreFlagged() {
        String plain = "café 中 \uD83D\uDE00";
        assertEquals(plain, RawText.decode(plain.getBytes(StandardCharsets.UTF_8)));
        assertFalse(RawText.isRaw(plain));
        // A lone byte, an overlong form, an encoded surrogate, a cut sequence: each byte kept on its own.
        for (byte[] odd : List.of(new byte[] {'a', (byte) 0xff}, new byte[] {(byte) 0xc0, (byte) 0xaf},
                new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, new byte[] {(byte) 0xe2, (byte) 0x82})) {
            String text = RawText.decode(odd);
            assertTrue(RawText.isRaw(text));
            assertArrayEquals(odd, RawText.encode(text));
            assertTrue(RawText.display(text).contains("\uFFFD"));
        }
        assertEquals("x\uFFFDy", RawText.display(RawText.decode(new byte[] {'x', (byte) 0xe9, 'y'})));
    }

    @Test
    void wordsAreSplitAtEachNul() {
        assertEquals(List.of("A=1", "", "B=\udce9"), RawText.words(new byte[] {'A', '=', '1', 0, 0, 'B', '=', (byte) 0xe9, 0}));
        assertEquals(List.of("tail"), RawText.words(new byte[] {'t', 'a', 'i', 'l'}));
        assertEquals(List.of(), RawText.words(new byte[0]));
    }
}
