package dev.runboard.ui.launch;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations typed in the dialog: "30", "1.5", "500ms", "30s", "5m", "1h"; empty means none. */
public final class DurationText {
    private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");

    private DurationText() {
    }

    /** @return null for empty text; throws IllegalArgumentException with a message for a person */
    public static Duration parse(String text, String what) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.isEmpty()) {
            return null;
        }
        Matcher m = FORM.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException(what + " must be a number of seconds, or like 500ms, 30s, 5m, 1h");
        }
        double v = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double ms = switch (unit) {
            case "ms" -> v;
            case "m" -> v * 60_000;
            case "h" -> v * 3_600_000;
            default -> v * 1000;
        };
        return Duration.ofMillis(Math.round(ms));
    }

    /** The inverse for prefilling: whole seconds as "30", else milliseconds as "1500ms". */
    public static String format(Duration d) {
        if (d == null) {
            return "";
        }
        return d.toMillis() % 1000 == 0 ? String.valueOf(d.toSeconds()) : d.toMillis() + "ms";
    }
}
