package dev.runboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command line the JVM could not decode is refused before anything runs, in a real JVM started
 * with the bytes a shell would pass: an invalid UTF-8 byte, and UTF-8 under a locale that is not.
 */
class ArgumentTextTest {
    @TempDir
    Path tmp;

    @Test
    void anInvalidByteIsRefusedAndNothingRuns() throws Exception {
        Path marker = tmp.resolve("ran");
        // printf in the shell makes the byte: Java cannot put one in an argument itself.
        Run run = runboard(Map.of("LC_ALL", "C.UTF-8"), "exec --data-dir '" + tmp.resolve("data") + "' --no-shell -- touch '"
                + marker + "' \"$(printf 'a\\377b')\"");
        assertEquals(2, run.exit, run.err);
        assertTrue(run.err.startsWith("runboard: argument 8 (a\\xffb) holds bytes that are not valid UTF-8"), run.err);
        assertFalse(Files.exists(marker), "nothing ran");
        assertFalse(Files.exists(tmp.resolve("data")), "no data dir was made");
    }

    @Test
    void utf8UnderALocaleThatIsNotIsRefusedWithTheFix() throws Exception {
        Path marker = tmp.resolve("ran");
        Run run = runboard(Map.of("LC_ALL", "C"), "exec --data-dir '" + tmp.resolve("data") + "' -- touch '" + marker
                + "' café");
        assertEquals(2, run.exit, run.err);
        assertTrue(run.err.startsWith("runboard: argument 7 (caf\\xc3\\xa9) is UTF-8, but this runboard runs in a locale whose encoding is"
                + " ANSI_X3.4-1968 and would read it as caf??: run it in a UTF-8 locale (e.g. LANG=C.UTF-8)"), run.err);
        assertFalse(Files.exists(marker), "nothing ran");
    }

    @Test
    void aReplacementCharacterTypedAsSuchIsKept() {
        String typed = "caf\uFFFD";
        assertNull(ArgumentText.problem(new String[] {"grep", typed}, "UTF-8",
                List.of("grep".getBytes(StandardCharsets.UTF_8), typed.getBytes(StandardCharsets.UTF_8))));
        assertTrue(ArgumentText.problem(new String[] {"grep", typed}, "UTF-8",
                List.of("grep".getBytes(StandardCharsets.UTF_8), new byte[] {'c', 'a', 'f', (byte) 0xff})).contains("argument 2"));
    }

    private record Run(int exit, String err) {
    }

    /** runboard's entry point in a JVM started by sh, so the shell builds the arguments' bytes. */
    private Run runboard(Map<String, String> env, String args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", "exec '" + java + "' -cp \"$RUNBOARD_CP\" "
                + Launcher.class.getName() + " " + args);
        pb.environment().remove("LANG");
        pb.environment().remove("LC_CTYPE");
        pb.environment().putAll(env);
        pb.environment().put("RUNBOARD_CP", System.getProperty("java.class.path"));
        Process p = pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Run(p.exitValue(), err);
    }
}
