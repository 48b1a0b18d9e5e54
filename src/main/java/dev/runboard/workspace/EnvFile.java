package dev.runboard.workspace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * An {@code env_file} as docker compose reads one: {@code KEY=VALUE} lines, blank lines and
 * {@code #} comments skipped, an optional {@code export } before the key; a value in single quotes
 * is taken literally, one in double quotes with {@code \n}, {@code \t}, {@code \r}, {@code \\} and
 * {@code \"} read as escapes (either may span lines); an unquoted value ends at a {@code #} after a
 * space and loses its surrounding spaces. A line with a name alone (take it from the environment) is
 * skipped: the command inherits the environment anyway. {@code ${VAR}} is not expanded.
 */
public final class EnvFile {
    /** The largest env file read: a file of settings, not data. */
    static final int MAX_BYTES = 256 * 1024;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");

    private EnvFile() {
    }

    /** A file that cannot be used: the sentence says which file, which line and what to do. */
    public static final class Unusable extends Exception {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message);
        }
    }

    /** The variables of {@code file}, in file order (a name given twice: the last wins, as in compose). */
    public static Map<String, String> read(Path file) throws Unusable {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new Unusable(file + " is larger than 256 KiB: an env_file holds variables, not data");
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new Unusable("no such file " + file);
        } catch (IOException e) {
            throw new Unusable("cannot read " + file + ": " + e.getMessage());
        }
        return parse(new String(bytes, StandardCharsets.UTF_8), file.toString());
    }

    /** Parses an env file's text; {@code source} names it in messages. */
    static Map<String, String> parse(String text, String source) throws Unusable {
        Map<String, String> vars = new LinkedHashMap<>();
        String[] lines = text.replace("\r\n", "\n").split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            int number = i + 1;
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("export ") || line.startsWith("export\t")) {
                line = line.substring(7).strip();
            }
            int eq = line.indexOf('=');
            String name = (eq < 0 ? line : line.substring(0, eq)).strip();
            if (!NAME.matcher(name).matches()) {
                throw new Unusable(source + ":" + number + ": '" + name + "' is not a variable name (write NAME=value)");
            }
            if (eq < 0) {
                continue; // NAME alone: compose takes it from the environment, which the command inherits
            }
            String rest = line.substring(eq + 1).stripLeading();
            if (rest.startsWith("'") || rest.startsWith("\"")) {
                char quote = rest.charAt(0);
                StringBuilder value = new StringBuilder();
                String part = rest.substring(1);
                int start = number;
                while (true) {
                    int close = closing(part, quote);
                    if (close >= 0) {
                        value.append(part, 0, close);
                        break;
                    }
                    value.append(part).append('\n');
                    if (++i >= lines.length) {
                        throw new Unusable(source + ":" + start + ": the value of " + name + " opens a " + quote
                                + " quote that never closes");
                    }
                    part = lines[i];
                }
                vars.put(name, quote == '"' ? unescaped(value.toString()) : value.toString());
            } else {
                java.util.regex.Matcher comment = Pattern.compile("\\s#").matcher(rest);
                vars.put(name, (comment.find() ? rest.substring(0, comment.start()) : rest).strip());
            }
        }
        return vars;
    }

    /** Where {@code quote} closes in {@code s} (a double quote escaped by a backslash does not), or -1. */
    private static int closing(String s, char quote) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote == '"' && c == '\\') {
                i++;
            } else if (c == quote) {
                return i;
            }
        }
        return -1;
    }

    private static String unescaped(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                out.append(c);
                continue;
            }
            char next = s.charAt(++i);
            switch (next) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case '\\', '"', '$' -> out.append(next);
                default -> out.append('\\').append(next);
            }
        }
        return out.toString();
    }
}
