package dev.runboard.session;

import java.util.Locale;
import java.util.Optional;

/** The signals runboard sends, with their Linux numbers. */
public enum Signal {
    HUP(1), INT(2), QUIT(3), KILL(9), USR1(10), USR2(12), TERM(15), CONT(18), STOP(19);

    private final int number;

    Signal(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }

    /** Parses "TERM", "term", "SIGTERM" or "15". */
    public static Signal parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        if (t.startsWith("SIG")) {
            t = t.substring(3);
        }
        for (Signal s : values()) {
            if (s.name().equals(t) || String.valueOf(s.number).equals(t)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown signal '" + text + "' (use one of HUP, INT, QUIT, KILL, USR1, USR2, TERM, CONT, STOP)");
    }

    /** The name of a Linux signal number, including ones runboard never sends (SEGV, ABRT, PIPE...). */
    public static Optional<String> nameOf(int number) {
        String[] names = {null, "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV",
            "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU",
            "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"};
        return number > 0 && number < names.length ? Optional.of(names[number]) : Optional.empty();
    }
}
