package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Captured output to a terminal has its controls shown; to a pipe or file it goes out byte for byte. */
class VisibleControlsTest {
    /** A retitle (OSC 0), a colour, a bell, a CR, DEL, a C1 CSI, tab and newline, and text that is no control (é, a no-break space). */
    private static final String HOSTILE = "\u001B]0;pwned\u0007\u001B[31mred\u001B[0m\r\u007F\u009B2J\tcaf\u00E9\u00A0ok\n";

    @Test
    void toATerminalControlsAreShownAsCaretsAndTabAndNewlineStay() {
        assertEquals("^[]0;pwned^G^[[31mred^[[0m^M^?<U+009B>2J\tcaf\u00E9\u00A0ok\n", new VisibleControls(true).text(HOSTILE));
    }

    @Test
    void toAPipeTheTextIsUntouched() {
        assertEquals(HOSTILE, new VisibleControls(false).text(HOSTILE));
    }

    @Test
    void bytesToATerminalAreShownTheSameWayEvenWhenAWriteEndsInsideAC1Control() throws Exception {
        byte[] raw = HOSTILE.getBytes(StandardCharsets.UTF_8);
        String expected = new VisibleControls(true).text(HOSTILE);
        for (int cut = 0; cut <= raw.length; cut++) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (OutputStream shown = new VisibleControls(true).bytes(sink)) {
                shown.write(raw, 0, cut);
                shown.flush();
                shown.write(raw, cut, raw.length - cut);
            }
            assertEquals(expected, sink.toString(StandardCharsets.UTF_8), "written in two parts cut at " + cut);
        }
    }

    /** A writer that decodes each write alone (the CLI's own writer does) must get a two-byte character in one write. */
    @Test
    void aTwoByteCharacterThatIsNoControlReachesTheStreamInOneWrite() throws Exception {
        List<byte[]> writes = new ArrayList<>();
        OutputStream recording = new OutputStream() {
            @Override
            public void write(int b) {
                writes.add(new byte[] {(byte) b});
            }

            @Override
            public void write(byte[] b, int off, int len) {
                writes.add(java.util.Arrays.copyOfRange(b, off, off + len));
            }
        };
        try (OutputStream shown = new VisibleControls(true).bytes(recording)) {
            shown.write("\u00B0C\u001B".getBytes(StandardCharsets.UTF_8));
        }
        StringBuilder decodedAlone = new StringBuilder();
        writes.forEach(w -> decodedAlone.append(new String(w, StandardCharsets.UTF_8)));
        assertEquals("\u00B0C^[", decodedAlone.toString());
    }

    @Test
    void bytesToAPipeAreExactlyTheBytesWrittenAndTheStreamBeneathStaysOpen() throws Exception {
        byte[] raw = (HOSTILE + "\u00C2").getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[raw.length + 1];
        System.arraycopy(raw, 0, all, 0, raw.length);
        all[raw.length] = (byte) 0xC2; // a lone lead byte at the very end, as a cut capture may have
        ByteArrayOutputStream sink = new ByteArrayOutputStream() {
            @Override
            public void close() {
                throw new AssertionError("stdout must stay open");
            }
        };
        try (OutputStream out = new VisibleControls(false).bytes(sink)) {
            out.write(all);
        }
        assertArrayEquals(all, sink.toByteArray());
    }
}
