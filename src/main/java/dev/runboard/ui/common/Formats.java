package dev.runboard.ui.common;

import dev.runboard.session.Sizes;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How times, durations, sizes and paths read in the window: short, aligned, unambiguous. */
public final class Formats {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);
    private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("MMM d HH:mm", Locale.ROOT);
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
    private static final int CWD_MAX = 36;

    private Formats() {
    }

    /** "0.4 s", "12 s", "3m 05s", "2h 07m"; whole seconds (a running session's) as "6 s", not "6.0 s". */
    public static String elapsed(Duration d) {
        if (d == null) {
            return "";
        }
        long ms = d.toMillis();
        if (ms < 10_000 && ms % 1000 != 0) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh %02dm", s / 3600, (s % 3600) / 60);
    }

    /** Seconds as the dialog and facts show them: "2 s", "1.5 s". */
    public static String seconds(double s) {
        return s == Math.rint(s) ? String.format(Locale.ROOT, "%.0f s", s) : String.format(Locale.ROOT, "%.1f s", s);
    }

    /** Time of day for today, else day and time. */
    public static String startedAt(Instant at) {
        if (at == null) {
            return "";
        }
        ZonedDateTime t = at.atZone(ZoneId.systemDefault());
        return t.toLocalDate().equals(LocalDate.now()) ? TIME.format(t) : DAY_TIME.format(t);
    }

    public static String dateTime(Instant at) {
        return at == null ? "" : DATE_TIME.format(at.atZone(ZoneId.systemDefault()));
    }

    public static String bytes(long n) {
        return Sizes.format(n);
    }

    /** A multi-line command on one line: its first line, then " …". */
    public static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        String t = text.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl).stripTrailing() + " \u2026";
    }

    /** The home folder as "~"; otherwise the path as it is. */
    public static String tildePath(String path) {
        if (path == null) {
            return "";
        }
        String home = System.getProperty("user.home");
        if (home != null && !home.isEmpty() && !home.equals("/") && (path.equals(home) || path.startsWith(home + "/"))) {
            return "~" + path.substring(home.length());
        }
        return path;
    }

    /** The home folder as "~", and a long path cut to its last folders: "…/project/module". */
    public static String shortPath(String path) {
        if (path == null) {
            return "";
        }
        String p = tildePath(path);
        if (p.length() <= CWD_MAX) {
            return p;
        }
        int cut = p.length() - CWD_MAX + 2;
        int slash = p.indexOf('/', cut);
        return "\u2026" + (slash >= 0 ? p.substring(slash) : p.substring(cut));
    }
}
