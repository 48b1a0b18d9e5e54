package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SessionIdTest {
    /** The shape as it was written before isValid read it by hand. */
    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private static boolean byPattern(String id) {
        return id != null && SHAPE.matcher(id).matches() && !id.contains("..");
    }

    @Test
    void readsIdsAsThePatternDid() {
        String alphabet = "aZ09._-/\\ \u00e9\u0000:..";
        Random random = new Random(16);
        for (int n = 0; n < 300_000; n++) {
            int length = random.nextInt(n % 50 == 0 ? 140 : 8);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < length; i++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String id = sb.toString();
            assertEquals(byPattern(id), SessionId.isValid(id), "'" + id + "'");
        }
        for (String id : new String[] {null, "", ".", "..", "a..b", "a.b", "a.", "-a", "a-", "20261129-191512-3f9a0c",
            "x".repeat(128), "x".repeat(129), "../etc", "a/b"}) {
            assertEquals(byPattern(id), SessionId.isValid(id), "'" + id + "'");
        }
    }

    @Test
    void anAmbiguousPrefixNamesTheSessionsItMatches() {
        assertEquals("2026 matches 2 sessions (20261203-100000-aaaaaa, 20261203-100001-bbbbbb); give more of the id",
                SessionId.ambiguous("2026", java.util.List.of("20261203-100000-aaaaaa", "20261203-100001-bbbbbb")));
        java.util.List<String> seven = java.util.stream.IntStream.range(0, 7).mapToObj(i -> "20261203-10000" + i + "-abcdef").toList();
        assertEquals("2026 matches 7 sessions (" + String.join(", ", seven.subList(0, 5)) + ", and 2 more); give more of the id",
                SessionId.ambiguous("2026", seven));
    }
}
