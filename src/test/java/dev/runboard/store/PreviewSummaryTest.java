package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.runboard.session.OutputPreview;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionState;
import dev.runboard.session.SessionStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A finished row's preview summary, found from the record's base64 without decoding it whole,
 * says what the full preview says (sizes, last line), and reading it back gives the very bytes
 * the record holds.
 */
class PreviewSummaryTest {
    @TempDir
    Path dataDir;

    @Test
    void theSummarysSizesAndLastLineAreThoseOfTheFullPreviewWhateverTheOutput() throws Exception {
        Random random = new Random(7);
        String[] words = {"ascii build line", "── ✓ ünïcödé 日本語 ──", "emoji 🚀 done", "\u001b[31mred\u001b[0m", "   ", ""};
        for (int size : new int[] {0, 1, 40, 4095, 4096, 4097, 4098, 9000, 65_536, 65_537, 70_000, 200_000}) {
            for (int trial = 0; trial < 6; trial++) {
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                while (out.size() < size) {
                    out.writeBytes((words[random.nextInt(words.length)] + (random.nextBoolean() ? "\n" : " ")).getBytes(StandardCharsets.UTF_8));
                }
                byte[] bytes = java.util.Arrays.copyOf(out.toByteArray(), size); // may cut a character
                SessionRecord record = record(bytes, 65_536);
                OutputPreview full = record.preview();
                OutputPreview summary = record.previewSummary(() -> record.previewUnpacked());
                String what = size + " bytes, trial " + trial;
                assertFalse(summary.isHeld(), what);
                assertEquals(0, summary.heldBytes(), "a summary holds no bytes: " + what);
                assertEquals(full.originalBytes(), summary.originalBytes(), what);
                assertEquals(full.visibleBytes(), summary.visibleBytes(), what);
                assertEquals(full.truncated(), summary.truncated(), what);
                assertEquals(full.lastLine(), summary.lastLine(), what);
                assertEquals(full.text(), summary.held().text(), what);
            }
        }
    }

    @Test
    void aNoteOnlyOutputSaysItsNoteAsItsLastLine() {
        SessionRecord record = SessionRecord.of("20260101-000000-abcdef", SessionSpec.shell("make").cwd(dataDir).build(),
                ended(OutputPreview.noteOnly("timed out after 5s"), dataDir.resolve("capture.log")));
        assertEquals("timed out after 5s", record.previewSummary(record::previewUnpacked).lastLine());
    }

    @Test
    void theLengthIsCountedAndCheckedAsTheDecoderWould() {
        Random random = new Random(3);
        for (int n = 0; n < 40; n++) {
            byte[] b = new byte[n];
            random.nextBytes(b);
            String s = Base64.getEncoder().encodeToString(b);
            assertEquals(n, Base64Length.of(s), s);
            assertEquals(n, Base64Length.of(s.replace("=", "")), "padding is optional, as for the decoder: " + s);
            byte[] last = Base64Length.decodeLast(s, n, 7);
            assertArrayEquals(java.util.Arrays.copyOfRange(b, n - last.length, n), last, s);
        }
        for (String bad : new String[] {"A", "AB=", "ABC==", "ABCD=", "AB!D", "AB=D", "ABCD===", "é"}) {
            assertThrows(IllegalArgumentException.class, () -> Base64.getDecoder().decode(bad), "the decoder refuses " + bad);
            assertThrows(IllegalArgumentException.class, () -> Base64Length.of(bad), "and so does the count: " + bad);
        }
    }

    @Test
    void aPreviewIsReadBackFromItsRecordAndFromTheCaptureOnceTheRecordIsGone() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        byte[] output = "first\n── ✓ the end ──\n".repeat(5_000).getBytes(StandardCharsets.UTF_8);
        String id = "20260101-000000-abcdef";
        SessionSpec spec = SessionSpec.shell("make").cwd(dataDir).build();
        dev.runboard.store.DataDirs.createPrivateDirectories(store.dirOf(id));
        Path capture = store.file(id, SessionStore.CAPTURE);
        Files.write(capture, output);
        OutputPreview shown = OutputPreview.of(output, spec.previewBytes());
        store.save(SessionRecord.of(id, spec, ended(shown, capture)));

        assertEquals(shown.text(), store.previewOf(id, spec.previewBytes()).text(), "from the record");
        Files.delete(store.file(id, SessionStore.RECORD));
        assertEquals(OutputPreview.read(capture, spec.previewBytes()).text(), store.previewOf(id, spec.previewBytes()).text(),
                "from the capture");
    }

    private SessionRecord record(byte[] output, int bound) {
        OutputPreview preview = OutputPreview.of(output, bound);
        return SessionRecord.of("20260101-000000-abcdef", SessionSpec.shell("make").cwd(dataDir).build(),
                ended(preview, dataDir.resolve("capture.log")));
    }

    private static SessionState.Ended ended(OutputPreview preview, Path capture) {
        Instant started = Instant.parse("2026-01-01T00:00:00Z");
        SessionOutcome outcome = new SessionOutcome(SessionStatus.COMPLETED, started.plusSeconds(3), 0, null, null, preview,
                null, null, null, capture.toString());
        return new SessionState.Ended(started, 1000L, 1L, outcome, null, null, List.of());
    }
}
