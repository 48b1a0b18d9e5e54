package dev.runboard.session;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Quotes argv for display the way a POSIX shell would read it back. */
public final class ShellQuoting {
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private ShellQuoting() {
    }

    public static String quote(String arg) {
        if (!arg.isEmpty() && SAFE.matcher(arg).matches()) {
            return arg;
        }
        return "'" + arg.replace("'", "'\\''") + "'";
    }

    public static String join(List<String> argv) {
        return argv.stream().map(ShellQuoting::quote).collect(Collectors.joining(" "));
    }
}
