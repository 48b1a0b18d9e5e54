package dev.runboard.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Issue #45: which names are secrets, and the one place a snapshot masks them. */
class SecretEnvTest {
    @Test
    void theDefaultPatternsAreCaseInsensitiveGlobs() {
        for (String name : List.of("GITHUB_TOKEN", "github_token", "DB_PASSWORD", "MYSQL_PASSWD", "OPENAI_API_KEY",
                "AWS_SECRET_ACCESS_KEY", "GOOGLE_CREDENTIALS", "SSH_PRIVATE_KEY", "token")) {
            assertTrue(SecretEnv.DEFAULT.matches(name), name);
        }
        for (String name : List.of("PATH", "HOME", "PORT", "API_URL", "KEYBOARD")) {
            assertFalse(SecretEnv.DEFAULT.matches(name), name);
        }
        SecretEnv own = new SecretEnv(List.of("*_PIN", "session?", "a.b"));
        assertTrue(own.matches("card_pin"));
        assertTrue(own.matches("SESSION1"));
        assertFalse(own.matches("SESSION12"));
        assertFalse(own.matches("axb"), "only * and ? are wildcards");
    }

    @Test
    void aSnapshotMasksTheMarkedNamesAndKeepsTheSpecsValues() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DATABASE_URL", "postgres://u:p@db/app");
        env.put("API_TOKEN", "t0k");
        env.put("GREETING", "hello");
        SessionSpec spec = SessionSpec.shell("true").env(env).secretEnv(Set.of("DATABASE_URL")).build().markedBy(SecretEnv.DEFAULT);
        assertEquals(Set.of("API_TOKEN", "DATABASE_URL"), spec.secretEnv());
        SessionSnapshot s = SessionSnapshot.of("20261206-1700-abcd", spec, java.nio.file.Path.of("/tmp/c"),
                new SessionState.Waiting(java.time.Instant.now(), SessionStatus.PENDING, "waiting", null), OutputPreview.EMPTY,
                java.time.Duration.ZERO);
        assertEquals(SecretEnv.MASK, s.env().get("DATABASE_URL"));
        assertEquals(SecretEnv.MASK, s.env().get("API_TOKEN"));
        assertEquals("hello", s.env().get("GREETING"));
        assertEquals("t0k", spec.env().get("API_TOKEN"), "the spec, and so the record, keeps the value");
        assertEquals("t0k", s.revealed(spec.env()).env().get("API_TOKEN"));

        // What the defaults mask anyway is left unmarked; patterns that hide nothing are marked so.
        assertNull(SessionSpec.shell("true").env(env).build().markedBy(SecretEnv.DEFAULT).secretEnv());
        SessionSpec none = SessionSpec.shell("true").env(env).build().markedBy(new SecretEnv(List.of()));
        assertEquals(Set.of(), none.secretEnv());
        assertEquals(env, SessionSnapshot.of("20261206-1700-abce", none, java.nio.file.Path.of("/tmp/c"),
                new SessionState.Waiting(java.time.Instant.now(), SessionStatus.PENDING, "waiting", null), OutputPreview.EMPTY,
                java.time.Duration.ZERO).env());
    }
}
