package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PtyOptionTest {
    @TempDir
    Path dataDir;

    private JsonNode exec(String... words) throws Exception {
        StringWriter out = new StringWriter();
        String[] args = new String[words.length + 5];
        System.arraycopy(new String[] {"exec", "--data-dir", dataDir.toString(), "--shell", "/bin/sh"}, 0, args, 0, 5);
        System.arraycopy(words, 0, args, 5, words.length);
        RunboardCli.run(args, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        return Json.mapper().readTree(out.toString());
    }

    @Test
    void ptyFlagRunsTheCommandInATerminal() throws Exception {
        assertEquals("tty\r\n", exec("--pty", "--", "test -t 1 && echo tty || echo notty").get("output").asText());
        assertEquals("notty\n", exec("--", "test -t 1 && echo tty || echo notty").get("output").asText());
    }
}
