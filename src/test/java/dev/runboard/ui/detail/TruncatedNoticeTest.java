package dev.runboard.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * The sentence over a cut preview. The output's total ticks once a second, so for a moment it can
 * equal the bytes the preview holds: issue 47 saw "the 0 B in between are in the full output".
 */
class TruncatedNoticeTest {
    @Test
    void nothingBetweenHeadAndTailIsNotCountedAsZeroBytes() {
        String notice = DetailViewModel.truncatedNotice(128 * 1024, 0);
        assertEquals("128 KiB of output: this pane shows its start and end; the rest is in the full output", notice);
        assertFalse(notice.contains("0 B"), notice);
    }

    @Test
    void whatLiesBetweenHeadAndTailIsCountedInTheSameUnits() {
        long total = 1_258_291; // 1.2 MiB
        long shown = 128 * 1024;
        assertEquals("1.2 MiB of output: this pane shows its start and end; the 1.1 MiB in between are in the full output",
                DetailViewModel.truncatedNotice(total, total - shown));
    }
}
