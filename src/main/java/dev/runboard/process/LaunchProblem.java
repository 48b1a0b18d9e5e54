package dev.runboard.process;

import dev.runboard.session.SessionSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why the program a session names could not be run, when its command ended with 126 or 127 (what
 * shells and the wrapper exit with when exec fails). "Command not found" sends a person looking
 * for the program itself; when the program is there, the file says what is wrong instead: it is a
 * folder, it lacks execute permission, the interpreter on its {@code #!} line does not exist, or it
 * is not a program this machine can run. Null when the program cannot be told (a shell command
 * that does not start with a plain word), is not found, or looks runnable: then the exit status
 * came from the command itself.
 */
final class LaunchProblem {
    /** A shell command's first word when it is a plain program name or path (no quoting, no assignment, no expansion). */
    private static final Pattern FIRST_WORD = Pattern.compile("\\s*([A-Za-z0-9_./+,:@%-]+)(?:\\s|$)");
    private static final Pattern SHEBANG = Pattern.compile("#!\\s*(\\S+)");

    private LaunchProblem() {
    }

    /** The sentence for a session of {@code spec} that exited with {@code exitCode}, or null (see the class comment). */
    static String of(SessionSpec spec, int exitCode) {
        if ((exitCode != 126 && exitCode != 127) || spec.isRemote()) {
            return null; // a remote program's files are on its host, not here
        }
        Path program = program(spec);
        if (program == null) {
            return null;
        }
        String shown = shown(spec, program);
        if (Files.isDirectory(program)) {
            return shown + " is a folder, not a program";
        }
        if (!Files.isRegularFile(program)) {
            return null;
        }
        if (!Files.isExecutable(program)) {
            return shown + " is not executable: chmod +x it, or run it with its interpreter";
        }
        String interpreter = interpreter(program);
        String missing = interpreter == null ? null : missingInterpreter(interpreter, spec);
        if (missing != null) {
            return "the interpreter of " + shown + ", " + missing + " (its #! line), was not found";
        }
        if (interpreter == null && isBrokenElf(program)) {
            return shown + " is not a program this machine can run (exec format error)";
        }
        return null;
    }

    /** The file the command runs: argv[0], or a shell command's first word, found as the shell and execvp find it. */
    private static Path program(SessionSpec spec) {
        String word;
        if (spec.usesShell()) {
            word = firstWord(spec.shellCommand());
        } else {
            word = spec.argv().isEmpty() ? null : spec.argv().get(0);
        }
        if (word == null || word.isEmpty()) {
            return null;
        }
        try {
            if (word.contains("/")) {
                return spec.cwd().resolve(word);
            }
            String path = spec.env().getOrDefault("PATH", System.getenv("PATH"));
            for (String dir : (path == null ? "" : path).split(":")) {
                Path candidate = spec.cwd().resolve(dir.isEmpty() ? "." : dir).resolve(word);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        } catch (InvalidPathException e) {
            return null;
        }
        return null; // not found: "command not found" says it
    }

    /** The program as the person wrote it when they gave a path ({@code ./build.sh}), else where the PATH led. */
    private static String shown(SessionSpec spec, Path program) {
        String word = spec.usesShell() ? firstWord(spec.shellCommand()) : spec.argv().get(0);
        return word != null && word.contains("/") ? word : program.toString();
    }

    private static String firstWord(String command) {
        Matcher m = FIRST_WORD.matcher(command);
        return m.lookingAt() ? m.group(1) : null;
    }

    /** The {@code #!} first line after its {@code #!}, or null when the file does not start with one. */
    private static String interpreter(Path file) {
        byte[] head = head(file, 256);
        String first = new String(head, StandardCharsets.ISO_8859_1).lines().findFirst().orElse("");
        Matcher m = SHEBANG.matcher(first);
        return m.lookingAt() ? first.substring(m.start(1)).strip() : null;
    }

    /**
     * The interpreter named on a {@code #!} line when it does not exist, else null; for {@code #!/usr/bin/env
     * NAME}, NAME when no folder of the PATH holds it.
     */
    private static String missingInterpreter(String line, SessionSpec spec) {
        String[] words = line.split("\\s+");
        Path interpreter = Path.of(words[0]);
        if (!Files.exists(interpreter)) {
            return words[0];
        }
        if (interpreter.getFileName() != null && interpreter.getFileName().toString().equals("env") && words.length > 1
                && !words[1].startsWith("-") && !words[1].contains("/") && !words[1].contains("=")) {
            String path = spec.env().getOrDefault("PATH", System.getenv("PATH"));
            for (String dir : (path == null ? "" : path).split(":")) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir).resolve(words[1]))) {
                    return null;
                }
            }
            return words[1];
        }
        return null;
    }

    /** An ELF magic number followed by a header the kernel refuses at once (class, byte order and version out of range). */
    private static boolean isBrokenElf(Path file) {
        byte[] h = head(file, 7);
        if (h.length < 4 || h[0] != 0x7F || h[1] != 'E' || h[2] != 'L' || h[3] != 'F') {
            return false;
        }
        return h.length < 7 || (h[4] != 1 && h[4] != 2) || (h[5] != 1 && h[5] != 2) || h[6] != 1;
    }

    private static byte[] head(Path file, int bytes) {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(bytes);
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
