package dev.runboard.ui.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The diff the window shows: a line too long to show is cut, visibly, and the lines after it are whole. */
class DiffTextTest {
    @TempDir
    Path dir;

    @Test
    void aLongLineIsShownCutWithAMarkAndTheRestAsIs() throws Exception {
        String longLine = "x".repeat(4 * DiffText.LINE_BYTES);
        Path older = Files.writeString(dir.resolve("a"), "start\n" + longLine + "\nend\n");
        Path newer = Files.writeString(dir.resolve("b"), "start\n" + longLine + "y\nend\n");
        DiffText diff = DiffText.compare(older, "a", newer, "b", false);
        assertFalse(diff.same());
        String shown = "x".repeat(DiffText.LINE_BYTES - 1) + DiffText.CUT_MARK;
        assertEquals(List.of("--- a", "+++ b", "@@ -1,3 +1,3 @@", " start", "-" + shown, "+" + shown, " end"), diff.lines());
    }
}
