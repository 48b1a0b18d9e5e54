package dev.runboard.ui.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArgvSplitterTest {
    @Test
    void splitsOnWhitespaceRespectingQuotesAndEscapes() {
        assertEquals(List.of("grep", "-r", "hello world", "it's", "a\"b", "c d", ""),
                ArgvSplitter.split("grep  -r 'hello world' it\\'s \"a\\\"b\" c\\ d ''"));
        assertEquals(List.of("echo", "$HOME", "*"), ArgvSplitter.split("echo '$HOME' *"));
    }

    @Test
    void unclosedQuotesAreErrors() {
        assertThrows(IllegalArgumentException.class, () -> ArgvSplitter.split("echo 'oops"));
        assertThrows(IllegalArgumentException.class, () -> ArgvSplitter.split("echo \"oops"));
    }

    @Test
    void durationsReadAsPeopleTypeThem() {
        assertEquals(null, DurationText.parse(" ", "timeout"));
        assertEquals(Duration.ofSeconds(30), DurationText.parse("30", "timeout"));
        assertEquals(Duration.ofMillis(1500), DurationText.parse("1.5s", "timeout"));
        assertEquals(Duration.ofMinutes(5), DurationText.parse("5m", "timeout"));
        assertEquals(Duration.ofMillis(500), DurationText.parse("500ms", "grace"));
        assertThrows(IllegalArgumentException.class, () -> DurationText.parse("soon", "timeout"));
        assertEquals("1500ms", DurationText.format(Duration.ofMillis(1500)));
    }
}
