package dev.runboard.ui.ansi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AnsiParserTest {
    @Test
    void sgrColoursAndBoldBecomeStyledSpans() {
        List<StyledLine> lines = new AnsiParser().parse("\u001B[1;32mok\u001B[0m done\n");
        assertEquals(1, lines.size());
        StyledLine line = lines.get(0);
        assertEquals("ok done", line.plain());
        assertEquals(2, line.spans().size());
        assertEquals(2, line.spans().get(0).style().fgIndex());
        assertTrue(line.spans().get(0).style().bold());
        assertTrue(line.spans().get(1).style().isPlain());
    }

    @Test
    void styleCarriesOverLineEndsAsInATerminal() {
        List<StyledLine> lines = new AnsiParser().parse("\u001B[31mred\nstill red\u001B[39m\nplain");
        assertEquals(1, lines.get(1).spans().get(0).style().fgIndex());
        assertTrue(lines.get(2).spans().get(0).style().isPlain());
    }

    @Test
    void otherEscapesAndControlsAreStrippedAndCarriageReturnRestartsTheLine() {
        List<StyledLine> lines = new AnsiParser().parse("\u001B[2K\u001B]0;title\u0007 10%\r 50%\r100%\u0007 done\r\n");
        assertEquals("100% done", lines.get(0).plain());
    }

    @Test
    void brightAnd256AndTrueColours() {
        AnsiParser p = new AnsiParser();
        assertEquals(9, p.parse("\u001B[91mx").get(0).spans().get(0).style().fgIndex());
        assertEquals(0xFF8000, p.parse("\u001B[38;2;255;128;0mx").get(0).spans().get(0).style().fgRgb());
        assertEquals(0xFF0000, p.parse("\u001B[38;5;196mx").get(0).spans().get(0).style().fgRgb());
    }

    @Test
    void sgrParametersParseWithEmptyColonAndJunkFields() {
        assertEquals(List.of(0), box(AnsiParser.codes("")));
        assertEquals(List.of(1, 0, 32), box(AnsiParser.codes("1;;32")));
        assertEquals(List.of(38, 2, 0, 255, 0, 0), box(AnsiParser.codes("38:2:0:255:0:0")));
        assertEquals(List.of(-1, 4), box(AnsiParser.codes("x7;4")));
    }

    private static List<Integer> box(int[] v) {
        return java.util.Arrays.stream(v).boxed().toList();
    }
}
