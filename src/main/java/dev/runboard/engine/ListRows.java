package dev.runboard.engine;

import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.Signal;
import java.util.Locale;

/**
 * The text of {@code runboard list}: a header and one line per session. One renderer for every way
 * the lines are made (the supervisor from the sessions in its memory, a client from the
 * {@link ListIndex} the supervisor left), so they are the same byte for byte. Free of Jackson.
 */
public final class ListRows {
    /**
     * Fixed widths, since a line is made once per ended session and kept (see {@link ListIndex}): each
     * column as wide as the longest it shows, EXIT a signal's full name such as SIGSTKFLT.
     */
    /** The HOST column: "-" for this machine; a longer name is cut with an ellipsis (show prints it whole). */
    private static final int HOST_WIDTH = 16;
    private static final String FORMAT = "%-22s %-9s %9s %" + exitWidth() + "s %-17s %-" + HOST_WIDTH + "s  %s";

    private ListRows() {
    }

    /** One session's line: its status word, apart for filtering, and the line without its end. */
    public record Row(String status, String line) {
        /** The session's id: the line's first column (ids have no spaces). */
        public String id() {
            int space = line.indexOf(' ');
            return space < 0 ? line : line.substring(0, space);
        }
    }

    public static String header() {
        return String.format(Locale.ROOT, FORMAT, "ID", "STATUS", "ELAPSED", "EXIT", "PROGRESS", "HOST", "COMMAND");
    }

    public static Row row(SessionSnapshot s) {
        String status = s.status().word();
        return new Row(status, String.format(Locale.ROOT, FORMAT, s.sessionId(), status, elapsed(s.elapsedSeconds()),
                exit(s), progress(s), host(s), oneLine(s.command()) + stackNote(s, status) + connectionNote(s)));
    }

    private static String host(SessionSnapshot s) {
        String h = s.host();
        if (h == null) {
            return "-";
        }
        return h.length() > HOST_WIDTH ? h.substring(0, HOST_WIDTH - 1) + "…" : h;
    }

    /** A running remote session whose host cannot be reached now: "[disconnected]", as show's connection says. */
    private static String connectionNote(SessionSnapshot s) {
        return dev.runboard.session.Session.DISCONNECTED.equals(s.connection()) ? "  [disconnected]" : "";
    }

    /** For a stack's session: starting/ready while it runs with a probe, and why it waits or was skipped. */
    private static String stackNote(SessionSnapshot s, String status) {
        String note = "";
        if (s.ready() != null && status.equals("running")) {
            note = s.ready() ? "  [ready]" : "  [starting]";
        }
        if ((status.equals("pending") || status.equals("queued") || status.equals("skipped")) && s.reason() != null) {
            note += "  (" + s.reason() + ")";
        }
        return note;
    }

    private static String exit(SessionSnapshot s) {
        if (s.signal() != null) {
            return "SIG" + s.signal();
        }
        return s.exitCode() != null ? s.exitCode().toString() : "-";
    }

    /** "SIG" and the longest name a signal is recorded by ({@link Signal#nameOf}); an unnamed number is shorter. */
    private static int exitWidth() {
        int longest = 0;
        for (int n = 1; n < 65; n++) {
            longest = Math.max(longest, Signal.nameOf(n).map(String::length).orElse(0));
        }
        return "SIG".length() + longest;
    }

    /** "45% 12.0s left", "longer than usual", or "-" when the command has too few earlier runs to tell. */
    private static String progress(SessionSnapshot s) {
        if (s.longerThanUsual()) {
            return "longer than usual";
        }
        if (s.progress() == null) {
            return "-";
        }
        String eta = s.etaSeconds() != null ? " " + elapsed(s.etaSeconds()) + " left" : "";
        return Math.round(s.progress() * 100) + "%" + eta;
    }

    public static String elapsed(double seconds) {
        long s = (long) seconds;
        if (s < 60) {
            return String.format(Locale.ROOT, "%.1fs", seconds);
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    private static String oneLine(String command) {
        String flat = String.valueOf(command).replace('\n', ' ');
        return flat.length() > 80 ? flat.substring(0, 79) + "\u2026" : flat;
    }
}
