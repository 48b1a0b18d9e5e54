package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ShownUtf8Test {
    /** Bytes of every kind, in runs of every length: what the preview shows, encoded, whatever the bytes. */
    @Test
    void givesTheEncodingOfTheDecodedTextForAnyBytes() {
        Random random = new Random(7);
        byte[] alphabet = {'a', '\n', 0, 0x7F, (byte) 0xC3, (byte) 0xA9, (byte) 0xE2, (byte) 0x80, (byte) 0xA6,
            (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0xED, (byte) 0xA0, (byte) 0xBF, (byte) 0xC0, (byte) 0xC1,
            (byte) 0xF4, (byte) 0x90, (byte) 0xF8, (byte) 0xFF};
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = new byte[random.nextInt(12)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
            }
            assertArrayEquals(OutputPreview.decode(bytes).getBytes(StandardCharsets.UTF_8), ShownUtf8.of(bytes.clone()),
                    () -> java.util.HexFormat.ofDelimiter(" ").formatHex(bytes));
        }
    }

    @Test
    void plainAsciiIsHandedBackAsItIs() {
        byte[] plain = "make: all done\n".getBytes(StandardCharsets.US_ASCII);
        assertSame(plain, ShownUtf8.of(plain));
    }

    /** A preview's text as bytes is its text, encoded: cut or not, with or without a note. */
    @Test
    void aPreviewsTextAsBytesIsItsTextEncoded() {
        byte[] output = "first line \u00e9\n\u0000second\u2026 line\n".repeat(40).getBytes(StandardCharsets.UTF_8);
        for (OutputPreview p : new OutputPreview[] {OutputPreview.of(output, 100), OutputPreview.of(output, 1 << 20),
            OutputPreview.EMPTY, OutputPreview.noteOnly("timed out after 5 s")}) {
            assertArrayEquals(p.text().getBytes(StandardCharsets.UTF_8), p.textUtf8());
        }
    }
}
