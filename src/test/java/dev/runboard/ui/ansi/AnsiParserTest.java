package dev.runboard.ui.ansi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    void carriageReturnOverwritesAsATerminalDoes() {
        assertEquals("XYcdef", plain("abcdef\rXY"));
        assertEquals("[#####     ] 50%", plain("[#         ] 10%\r[#####     ] 50%"));
        assertEquals("[##########] 100%", plain("[#         ] 10%\r[#####     ] 50%\r[##########] 100%\r"));
        assertEquals("done", plain("downloading 10%\r\u001B[Kdone"), "erase to the end of the line");
        assertEquals("ok", plain("downloading 10%\r\u001B[2Kok"), "erase the whole line");
        assertEquals("abd", plain("abc\bd"), "backspace moves back one");
        assertEquals("   def", plain("abcdef\rxy\u001B[1K"), "erase from the start through the cursor");
    }

    @Test
    void overwrittenTextKeepsTheStylesOfWhatIsShown() {
        StyledLine line = new AnsiParser().parse("\u001B[31mredred\r\u001B[32mOK\u001B[0m\n").get(0);
        assertEquals("OKdred", line.plain());
        assertEquals(2, line.spans().get(0).style().fgIndex(), "the new text is green");
        assertEquals("dred", line.spans().get(1).text());
        assertEquals(1, line.spans().get(1).style().fgIndex(), "what is left of the old text stays red");
    }

    private static String plain(String text) {
        return new AnsiParser().parse(text).get(0).plain();
    }

    @Test
    void brightAnd256AndTrueColours() {
        AnsiParser p = new AnsiParser();
        assertEquals(9, p.parse("\u001B[91mx").get(0).spans().get(0).style().fgIndex());
        assertEquals(0xFF8000, p.parse("\u001B[38;2;255;128;0mx").get(0).spans().get(0).style().fgRgb());
        assertEquals(0xFF0000, p.parse("\u001B[38;5;196mx").get(0).spans().get(0).style().fgRgb());
    }

    @Test
    void backgroundPaletteColours() {
        for (int code = 40; code <= 47; code++) {
            assertEquals(code - 40, style("\u001B[" + code + "mx").bgIndex(), "SGR " + code);
        }
        for (int code = 100; code <= 107; code++) {
            assertEquals(code - 100 + 8, style("\u001B[" + code + "mx").bgIndex(), "SGR " + code);
        }
        SgrStyle whiteOnRed = style("\u001B[41;37m ERR ");
        assertEquals(1, whiteOnRed.bgIndex());
        assertEquals(7, whiteOnRed.fgIndex());
        assertTrue(whiteOnRed.hasBackground());
    }

    @Test
    void background256AndTrueColours() {
        assertEquals(3, style("\u001B[48;5;3mx").bgIndex(), "the 256-colour palette's first 16 are the palette");
        assertEquals(0xFF0000, style("\u001B[48;5;196mx").bgRgb());
        assertEquals(0x080808, style("\u001B[48;5;232mx").bgRgb());
        assertEquals(0x102030, style("\u001B[48;2;16;32;48mx").bgRgb());
        assertEquals(0x102030, style("\u001B[48:2:16:32:48mx").bgRgb());
        SgrStyle both = style("\u001B[48;2;1;2;3;38;5;196;1mx");
        assertEquals(0x010203, both.bgRgb());
        assertEquals(0xFF0000, both.fgRgb());
        assertTrue(both.bold(), "the parameters after an extended colour still apply");
        assertEquals(SgrStyle.NONE, both.bgIndex());
    }

    @Test
    void defaultBackgroundAndResetEndTheFill() {
        AnsiParser p = new AnsiParser();
        StyledLine line = p.parse("\u001B[31;44mon blue\u001B[49m plain bg\u001B[48;5;200m rgb\u001B[0m end").get(0);
        assertEquals(4, line.spans().get(0).style().bgIndex());
        assertEquals(1, line.spans().get(1).style().fgIndex(), "49 leaves the text colour");
        assertFalse(line.spans().get(1).style().hasBackground());
        assertTrue(line.spans().get(2).style().bgRgb() != SgrStyle.NONE);
        assertTrue(line.spans().get(3).style().isPlain());
    }

    @Test
    void reverseVideoAndConcealTurnOnAndOff() {
        StyledLine line = new AnsiParser().parse("\u001B[7mrev\u001B[27mnot\u001B[8mhidden\u001B[28mshown").get(0);
        assertTrue(line.spans().get(0).style().reverse());
        assertTrue(line.spans().get(0).style().hasBackground(), "reverse video paints a background");
        assertFalse(line.spans().get(1).style().reverse());
        assertTrue(line.spans().get(2).style().conceal());
        assertFalse(line.spans().get(3).style().conceal());
        assertTrue(line.spans().get(3).style().isPlain());
        assertEquals("revnothiddenshown", line.plain(), "concealed text is still there to copy and find");
    }

    @Test
    void strikethroughTurnsOnAndOff() {
        StyledLine line = new AnsiParser().parse("\u001B[9mgone\u001B[29mkept").get(0);
        assertTrue(line.spans().get(0).style().strikethrough());
        assertTrue(line.spans().get(1).style().isPlain(), "29 ends it");
    }

    private static SgrStyle style(String text) {
        return new AnsiParser().parse(text).get(0).spans().get(0).style();
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
