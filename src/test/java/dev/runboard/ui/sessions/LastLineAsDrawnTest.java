package dev.runboard.ui.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The Last line column shows a line as a terminal leaves it after carriage returns. */
class LastLineAsDrawnTest {
    @Test
    void theLastLineReadsAsATerminalDrawsIt() {
        assertEquals("[#####] 100%", SessionRow.asDrawn("[#    ] 20%\r[###  ] 60%\r[#####] 100%"));
        assertEquals("[#####] 100%", SessionRow.asDrawn("[##   ] 40%\r[#####] 100%\r"), "a trailing CR (CRLF output) is no overwrite");
        assertEquals("plain line", SessionRow.asDrawn("plain line"));
        assertEquals("XYcdef", SessionRow.asDrawn("abcdef\rXY"), "a shorter redraw leaves the rest, as the tail pane shows it");
        assertEquals("abX", SessionRow.asDrawn("abc\bX"), "a backspace moves one back");
        assertEquals(null, SessionRow.asDrawn(null));
    }
}
