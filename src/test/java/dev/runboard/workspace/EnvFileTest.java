package dev.runboard.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue #45: env_file read as docker compose reads one, the file-wide environment, and their precedence. */
class EnvFileTest {
    @TempDir
    Path dir;

    @Test
    void readsLinesAsComposeDoes() throws Exception {
        Map<String, String> vars = EnvFile.parse("""
                # a comment
                PLAIN=value  # a comment after a space
                HASH=a#b
                export EXPORTED=yes
                SPACED =  padded\s\s
                SINGLE='literal $HOME \\n # kept'
                DOUBLE="tab\\there \\"quoted\\" # kept"
                MULTI="first
                second"
                EMPTY=
                INHERITED
                CRLF=x\r
                """, "test.env");
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("PLAIN", "value");
        expected.put("HASH", "a#b");
        expected.put("EXPORTED", "yes");
        expected.put("SPACED", "padded");
        expected.put("SINGLE", "literal $HOME \\n # kept");
        expected.put("DOUBLE", "tab\there \"quoted\" # kept");
        expected.put("MULTI", "first\nsecond");
        expected.put("EMPTY", "");
        expected.put("CRLF", "x");
        assertEquals(expected, vars);
    }

    @Test
    void aBadLineOrAnOpenQuoteNamesTheFileAndLine() {
        EnvFile.Unusable bad = assertThrows(EnvFile.Unusable.class, () -> EnvFile.parse("A=1\n2B=x\n", "app.env"));
        assertEquals("app.env:2: '2B' is not a variable name (write NAME=value)", bad.getMessage());
        EnvFile.Unusable open = assertThrows(EnvFile.Unusable.class, () -> EnvFile.parse("A=1\nB=\"never\nC=3\n", "app.env"));
        assertTrue(open.getMessage().startsWith("app.env:2: the value of B opens a \" quote"), open.getMessage());
    }

    @Test
    void environmentThenEnvFilesThenEnvAndOnlyTheFilesValuesAreSecret() throws Exception {
        Files.writeString(dir.resolve("common.env"), "SHARED=from-common\nOVERRIDDEN=from-common\nDB_URL=postgres://x\n");
        Files.createDirectories(dir.resolve("conf"));
        Files.writeString(dir.resolve("conf/api.env"), "SHARED=from-api\n");
        Path file = Files.writeString(dir.resolve("runboard.yaml"), """
                environment:
                  SHARED: from-environment
                  ONLY_ENVIRONMENT: base
                env_file: common.env
                commands:
                  api:
                    command: env
                    env_file: [conf/api.env]
                    env:
                      OVERRIDDEN: from-env
                """);
        Workspace ws = Workspace.read(file);
        SessionSpec spec = ws.spec("api");
        assertEquals("from-api", spec.env().get("SHARED"), "the command's env_file over the file's, over environment");
        assertEquals("from-env", spec.env().get("OVERRIDDEN"), "env over env_file");
        assertEquals("base", spec.env().get("ONLY_ENVIRONMENT"));
        assertEquals("postgres://x", spec.env().get("DB_URL"));
        assertEquals(Set.of("SHARED", "DB_URL"), spec.secretEnv(), "values from env files, unless env replaced them");

        // Saving keeps both keys (a single path is written as a list of one).
        String written = WorkspaceYaml.write(ws.content());
        assertEquals(ws.content(), WorkspaceYaml.parse(written, file), written);
    }

    @Test
    void aMissingEnvFileIsALoadErrorAtItsKey() throws Exception {
        Path file = Files.writeString(dir.resolve("runboard.yaml"), """
                commands:
                  api:
                    command: env
                  worker:
                    command: env
                    env_file:
                      - missing.env
                """);
        WorkspaceException e = assertThrows(WorkspaceException.class, () -> Workspace.read(file));
        assertEquals(6, e.line(), e.getMessage());
        assertTrue(e.problem().startsWith("env_file missing.env: no such file " + dir.resolve("missing.env")), e.problem());
    }
}
