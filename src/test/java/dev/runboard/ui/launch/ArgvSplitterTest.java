package dev.runboard.ui.launch;

import dev.runboard.session.Durations;
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
        assertEquals(null, Durations.parseOptional(" "));
        assertEquals(Duration.ofSeconds(30), Durations.parseOptional("30"));
        assertEquals(Duration.ofMillis(1500), Durations.parseOptional("1.5s"));
        assertEquals(Duration.ofMinutes(5), Durations.parseOptional("5m"));
        assertEquals(Duration.ofMillis(500), Durations.parseOptional("500ms"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parseOptional("soon"));
        assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
        assertEquals("1h30m", Durations.format(Duration.ofMinutes(90)));
    }
}
