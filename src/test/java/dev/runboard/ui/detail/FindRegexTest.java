package dev.runboard.ui.detail;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Find in output with the regex toggle: the same reading of the query as the viewer's search. */
class FindRegexTest {
    @Test
    void aRegexMatchesCaseInsensitivelyAndPlainTextStaysLiteral() {
        List<int[]> hits = FindMatches.ofRegex("ERROR 12 then error 345", "error \\d+");
        assertEquals(2, hits.size());
        assertArrayEquals(new int[] {0, 8}, hits.get(0));
        assertArrayEquals(new int[] {14, 23}, hits.get(1));
        
    }

    @Test
    void anInvalidRegexMatchesNothingAndSaysSo() {
        assertEquals(0, FindMatches.ofRegex("a (b", "(b").size());
        assertNull(FindMatches.pattern("(b"));
        assertEquals(0, FindMatches.ofRegex("aaa", "x*").size(), "empty matches mark nothing");
    }
}
