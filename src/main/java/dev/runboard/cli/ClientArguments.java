package dev.runboard.cli;

import dev.runboard.session.RawText;
import java.util.List;

/**
 * Arguments that hold bytes which are not UTF-8. {@code start} and {@code exec} take them as they
 * are (a folder or a command word may be named so; the wrapper gets the bytes). Every other command
 * compares its arguments with text (ids, names, patterns), so one such argument would silently match
 * something else: it is refused before anything runs, saying which one.
 */
public final class ClientArguments {
    private ClientArguments() {
    }

    /** One line naming the first argument that is not UTF-8, for a command that cannot take one; else null. */
    static String problem(List<String> argv) {
        if (argv.isEmpty() || argv.get(0).equals("start") || argv.get(0).equals("exec")) {
            return null;
        }
        for (int i = 0; i < argv.size(); i++) {
            if (RawText.isRaw(argv.get(i))) {
                return notUtf8(i + 1, RawText.encode(argv.get(i)));
            }
        }
        return null;
    }

    /** What is said of argument {@code position} (from 1), whose bytes are not valid UTF-8. */
    public static String notUtf8(int position, byte[] bytes) {
        return "runboard: argument " + position + " (" + escaped(bytes) + ") holds bytes that are not valid UTF-8;"
                + " runboard passes arguments on as text, so it would run something else than what was typed: give the"
                + " argument as UTF-8 (a path with such bytes: a glob or a link to it); nothing was run";
    }

    /** The bytes in ASCII whatever the terminal's locale: printable ones as they are, the rest as \xNN. */
    public static String escaped(byte[] bytes) {
        StringBuilder b = new StringBuilder();
        for (byte x : bytes) {
            if (x >= 0x20 && x < 0x7f) {
                b.append((char) x);
            } else {
                b.append(String.format("\\x%02x", x & 0xff));
            }
        }
        return b.toString();
    }
}
