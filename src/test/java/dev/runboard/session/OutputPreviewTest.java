package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputPreviewTest {
    @TempDir
    Path dir;

    @Test
    void aPackedPreviewReadsExactlyAsTheOriginalAndHoldsLess() throws Exception {
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            log.append("\u001b[32m[INFO]\u001b[0m compiling module ").append(i % 37).append(" \u2713 \u65e5\u672c\n");
        }
        byte[] big = log.toString().getBytes(StandardCharsets.UTF_8);
        byte[] odd = {'o', 'k', 0, (byte) 0xC3, '\n', (byte) 0xFF, 'e', 'n', 'd', '\n'}; // NUL, a cut sequence, invalid UTF-8
        for (OutputPreview original : new OutputPreview[] {OutputPreview.of(big, 65_536), OutputPreview.of(big, 1_000_000),
            OutputPreview.of(odd, 65_536), OutputPreview.EMPTY, OutputPreview.noteOnly("timed out after 5 s")}) {
            OutputPreview packed = original.packed();
            assertEquals(original.text(), packed.text());
            assertEquals(original.lastLine(), packed.lastLine());
            assertEquals(original.truncated(), packed.truncated());
            assertEquals(original.visibleBytes(), packed.visibleBytes());
            assertEquals(original.originalBytes(), packed.originalBytes());
            assertTrue(java.util.Arrays.equals(original.headBytes(), packed.headBytes()));
            assertTrue(java.util.Arrays.equals(original.tailBytes(), packed.tailBytes()));
        }
        OutputPreview bounded = OutputPreview.of(big, 65_536);
        assertTrue(bounded.packed().heldBytes() < bounded.heldBytes() / 4,
                bounded.packed().heldBytes() + " of " + bounded.heldBytes() + " bytes held once packed");
        // Output that does not compress (random bytes) is kept as it is rather than grown.
        byte[] noise = new byte[65_536];
        new java.util.Random(7).nextBytes(noise);
        OutputPreview random = OutputPreview.of(noise, 65_536);
        assertEquals(random.heldBytes(), random.packed().heldBytes());
    }

    @Test
    void outputThatFitsIsShownWhole() {
        OutputPreview p = OutputPreview.of(bytes("one\ntwo\n"), 1024);
        assertFalse(p.truncated());
        assertEquals("one\ntwo\n", p.text());
        assertEquals(8, p.originalBytes());
        assertEquals("two", p.lastLine());
    }

    @Test
    void largeOutputKeepsHeadAndTailWithinTheBoundAndMarksTheGap() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            sb.append("line ").append(i).append('\n');
        }
        Path file = Files.writeString(dir.resolve("out.log"), sb);
        OutputPreview p = OutputPreview.read(file, 64 * 1024);
        assertTrue(p.truncated());
        assertTrue(p.visibleBytes() <= 64 * 1024);
        assertEquals(Files.size(file), p.originalBytes());
        String text = p.text();
        assertTrue(text.startsWith("line 0\nline 1\n"));
        assertTrue(text.endsWith("line 99999\n"));
        assertTrue(text.contains(" omitted (" + p.omittedBytes() + " bytes)"), "marker names the gap");
        assertEquals("line 99999", p.lastLine());
        // Cut points prefer line boundaries: every line shown is whole.
        for (String line : text.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("line ") || line.startsWith("\u2026"), line);
        }
    }

    @Test
    void cutsNeverSplitAUtf8Sequence() {
        // 3-byte characters with no newline: both cuts fall inside sequences unless handled.
        String euro = "\u20AC".repeat(5000);
        OutputPreview p = OutputPreview.of(bytes(euro), 1024 + 1);
        String text = p.text();
        assertFalse(text.contains("\uFFFD"), "no replacement character from a split sequence");
        assertTrue(p.visibleBytes() % 3 == 0);
    }

    @Test
    void invalidBytesAndNulShowAsReplacementCharacters() {
        byte[] raw = {'a', (byte) 0xFF, 'b', 0, 'c', (byte) 0xC3, '\n'};
        assertEquals("a\uFFFDb\uFFFDc\uFFFD\n", OutputPreview.of(raw, 1024).text());
    }

    @Test
    void ansiEscapesAreKeptInTextAndStrippedFromTheLastLine() {
        OutputPreview p = OutputPreview.of(bytes("\u001B[32mgreen\u001B[0m\n\u001B[1;31mred\u001B[0m\n"), 1024);
        assertTrue(p.text().contains("\u001B[32m"));
        assertEquals("red", p.lastLine());
    }

    @Test
    void theLastLineOfCarriageReturnProgressIsWhatATerminalShows() {
        StringBuilder progress = new StringBuilder("start\n");
        for (int i = 1; i <= 5000; i++) {
            progress.append("\rprogress ").append(i);
        }
        assertEquals("progress 5000", OutputPreview.of(bytes(progress.toString()), 64 * 1024).lastLine());
        assertEquals("progress 5000", OutputPreview.of(bytes(progress + "\r"), 64 * 1024).lastLine(), "waiting for its next rewrite");
        assertEquals("done", OutputPreview.of(bytes(progress + "\rdone\r\n"), 64 * 1024).lastLine(), "a CRLF line end erases nothing");
        assertEquals("progress 5000", OutputPreview.of(bytes(progress + "\r      \r\n"), 64 * 1024).lastLine(),
                "a rewrite to blanks shows no text: the last one that did");
        assertEquals("plain", OutputPreview.of(bytes("plain\r\n"), 1024).lastLine());
    }

    @Test
    void aTenMegabyteLineCostsOnlyTheBound() throws Exception {
        ByteArrayOutputStream big = new ByteArrayOutputStream();
        big.write(bytes("start\n"));
        big.write("x".repeat(10 * 1024 * 1024).getBytes(StandardCharsets.US_ASCII));
        big.write(bytes("\nend\n"));
        Path file = Files.write(dir.resolve("long.log"), big.toByteArray());
        OutputPreview p = OutputPreview.read(file, 64 * 1024);
        assertTrue(p.visibleBytes() <= 64 * 1024);
        assertTrue(p.text().startsWith("start\nxxx"));
        assertTrue(p.text().endsWith("xxx\nend\n"));
        assertEquals("end", p.lastLine());
    }

    /** Decoded in one pass by {@code new String}, with every invalid sequence replaced as a REPLACE decoder replaces it. */
    @Test
    void decodingReplacesInvalidBytesAsAReplacingDecoderDoes() throws Exception {
        java.util.Random random = new java.util.Random(16);
        byte[] awkward = {0, '\n', 'A', (byte) 0x80, (byte) 0xBF, (byte) 0xC0, (byte) 0xC1, (byte) 0xC2, (byte) 0xDF,
            (byte) 0xE0, (byte) 0xED, (byte) 0xEF, (byte) 0xF0, (byte) 0xF4, (byte) 0xF5, (byte) 0xFF, (byte) 0xA0, (byte) 0x9F};
        for (int round = 0; round < 200_000; round++) {
            byte[] raw = new byte[random.nextInt(12)];
            for (int i = 0; i < raw.length; i++) {
                raw[i] = random.nextBoolean() ? awkward[random.nextInt(awkward.length)] : (byte) random.nextInt(256);
            }
            assertEquals(replacingDecoder(raw), OutputPreview.decode(raw), java.util.HexFormat.of().formatHex(raw));
        }
    }

    private static String replacingDecoder(byte[] raw) throws Exception {
        java.nio.CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPLACE)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPLACE)
                .replaceWith("\uFFFD").decode(java.nio.ByteBuffer.wrap(raw));
        return chars.toString().replace('\0', '\uFFFD');
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
