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
}
