package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runboard completion bash}, sourced in a real bash and asked what it completes, as a person's Tab would. */
class CompletionCliTest {
    @TempDir
    Path dir;

    /**
     * Sources the script, finds the function {@code complete -p runboard} names, and calls it the way
     * bash's completion calls it (COMP_WORDS and COMP_CWORD: the last word is being completed).
     */
    private static final String ASK = """
            source "$1"; shift
            spec=$(complete -p runboard) || exit 3
            fn=${spec#*-F }; fn=${fn%% *}
            COMP_WORDS=(runboard "$@"); COMP_CWORD=$#
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            "$fn" runboard "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
            printf '%s\\n' "${COMPREPLY[@]}"
            """;

    @Test
    void bashCompletesSubcommandsAndTheirOptions() throws Exception {
        Path script = dir.resolve("runboard.bash");
        Files.writeString(script, run("completion", "bash"));

        assertEquals(List.of("kill"), complete(script, "ki"));
        assertTrue(complete(script, "").containsAll(List.of("exec", "list", "diff", "completion", "config")), complete(script, "").toString());
        assertEquals(List.of("--timeout"), complete(script, "exec", "--timeo"));
        assertEquals(List.of("set"), complete(script, "config", "s"));
        assertEquals(List.of("bash"), complete(script, "completion", "b"));
    }

    @Test
    void anotherShellIsAUsageErrorNamingTheOneThereIs() {
        StringWriter err = new StringWriter();
        int code = RunboardCli.run(new String[] {"completion", "fish"}, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(RunboardCli.USAGE, code);
        assertEquals("runboard completion: no completion for 'fish' yet; bash is the one supported\n", err.toString());
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RunboardCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        return out.toString();
    }

    /** What bash offers for the words after {@code runboard}, the last one being typed. */
    private static List<String> complete(Path script, String... words) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("bash", "--norc", "--noprofile", "-c", ASK, "ask", script.toString()));
        command.addAll(List.of(words));
        Process bash = new ProcessBuilder(command).redirectErrorStream(true).start();
        String said = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(bash.waitFor(30, TimeUnit.SECONDS), "bash answers");
        assertEquals(0, bash.exitValue(), said);
        return said.lines().filter(l -> !l.isEmpty()).toList();
    }
}
