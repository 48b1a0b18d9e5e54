package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code runboard completion bash|zsh|fish}, loaded in the real shell and asked what it completes, as a
 * person's Tab would: subcommands, options, a session id from its prefix (asked of a real runboard on
 * PATH, with a real session in its data dir) and a workspace's command names.
 */
class CompletionCliTest {
    @TempDir
    Path dir;

    /** bash: source the script, find the function {@code complete -p runboard} names, call it as bash's completion does. */
    private static final String BASH = """
            source "$1"; shift
            spec=$(complete -p runboard) || exit 3
            fn=${spec#*-F }; fn=${fn%% *}
            COMP_WORDS=(runboard "$@"); COMP_CWORD=$#
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            "$fn" runboard "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
            printf '%s\\n' "${COMPREPLY[@]}"
            """;

    /**
     * zsh: the script through zsh's bashcompinit, asked as its completion widget asks (the widget's own
     * {@code words} and {@code CURRENT}, and the bash variables it sets from them), through its {@code compgen -F};
     * then what zsh's compadd keeps of the matches: those starting with the word typed.
     */
    private static final String ZSH = """
            source "$1"; shift
            words=(runboard "$@"); CURRENT=$(( $# + 1 ))
            COMP_WORDS=( "${words[@]}" ); COMP_CWORD=$(( CURRENT - 1 ))
            COMP_LINE="${words[*]}"; COMP_POINT=${#COMP_LINE}
            typed="${words[CURRENT]}"
            compgen -F _runboard_complete -- "$typed" 2>/dev/null | while IFS= read -r m; do
                [[ "$m" == "$typed"* ]] && print -r -- "$m"
            done
            """;

    /** fish: its own script; {@code complete -C} prints what Tab would offer for a command line. */
    private static final String FISH = """
            source $argv[1]
            complete -C "runboard $argv[2..-1]"
            """;

    private Path bin;
    private Path data;

    @AfterEach
    void stopTheSupervisorListStarted() throws Exception {
        if (bin != null) {
            shell(List.of(bin.resolve("runboard").toString(), "supervisor", "stop"));
        }
    }

    @Test
    void eachShellCompletesSubcommandsOptionsIdsAndWorkspaceNames() throws Exception {
        // A runboard on PATH with a data dir of its own, one finished session in it, and a workspace here.
        bin = Files.createDirectories(dir.resolve("bin"));
        data = dir.resolve("data");
        Path shim = bin.resolve("runboard");
        Files.writeString(shim, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -cp '"
                + System.getProperty("java.class.path") + "' dev.runboard.Launcher \"$@\"\n");
        Files.setPosixFilePermissions(shim, PosixFilePermissions.fromString("rwx------"));
        List<String> exec = shell(List.of(shim.toString(), "exec", "--shell", "/bin/sh", "--", "true"));
        String id = exec.stream().filter(l -> l.contains("\"session_id\"")).findFirst().orElseThrow()
                .replaceAll(".*\"session_id\" *: *\"([^\"]+)\".*", "$1");
        Files.writeString(dir.resolve("runboard.yaml"), """
                commands:
                  web: {command: sleep 1}
                  worker: {command: sleep 1, group: jobs}
                """);

        for (String sh : List.of("bash", "zsh", "fish")) {
            Path script = dir.resolve("runboard." + sh);
            Files.writeString(script, run("completion", sh));
            assertEquals(List.of("kill"), complete(sh, script, "ki"), sh);
            assertTrue(complete(sh, script, "").containsAll(List.of("exec", "list", "diff", "completion", "config")),
                    sh + ": " + complete(sh, script, ""));
            assertEquals(List.of("--timeout"), complete(sh, script, "exec", "--timeo"), sh);
            assertEquals(List.of("set"), complete(sh, script, "config", "s"), sh);
            assertEquals(List.of("fish"), complete(sh, script, "completion", "fi"), sh);
            assertEquals(List.of(id), complete(sh, script, "show", id.substring(0, 17)), sh + ": an id from its prefix");
            assertEquals(List.of("web", "worker"), complete(sh, script, "up", "w"), sh + ": the workspace's names");
        }
    }

    @Test
    void anotherShellIsAUsageErrorNamingTheOnesThereAre() {
        StringWriter err = new StringWriter();
        int code = RunboardCli.run(new String[] {"completion", "tcsh"}, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(RunboardCli.USAGE, code);
        assertEquals("runboard completion: no completion for 'tcsh'; say bash, zsh or fish\n", err.toString());
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RunboardCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        return out.toString();
    }

    /** What the shell offers for the words after {@code runboard}, the last one being typed (fish: sorted, descriptions cut off). */
    private List<String> complete(String sh, Path script, String... words) throws Exception {
        List<String> command = new ArrayList<>(switch (sh) {
            case "bash" -> List.of("bash", "--norc", "--noprofile", "-c", BASH, "ask", script.toString());
            case "zsh" -> List.of("zsh", "-f", "-c", ZSH, "ask", script.toString());
            default -> List.of("fish", "--no-config", "-c", FISH, script.toString());
        });
        command.addAll(List.of(words));
        return shell(command).stream().map(l -> l.split("\t", 2)[0]).filter(l -> !l.isEmpty()).sorted().toList();
    }

    private List<String> shell(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(false);
        Map<String, String> env = builder.environment();
        if (bin != null) {
            env.put("PATH", bin + ":" + env.get("PATH"));
            env.put("RUNBOARD_HOME", data.toString());
        }
        Process p = builder.redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the shell answers");
        return said.lines().toList();
    }
}
