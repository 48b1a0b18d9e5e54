package dev.runboard.ui.ansi;

import java.util.List;

/** One line of output as runs of styled text, with its plain text for searching and copying. */
public record StyledLine(List<Span> spans, String plain) {
    public record Span(String text, SgrStyle style) {
    }

    public StyledLine {
        spans = List.copyOf(spans);
    }

    public static StyledLine plain(String text) {
        return new StyledLine(List.of(new Span(text, SgrStyle.PLAIN)), text);
    }
}
