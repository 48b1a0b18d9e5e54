package dev.runboard.ui.notify;

import dev.runboard.session.SessionInsight;
import dev.runboard.ui.sessions.SessionRow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.scene.control.Label;

/**
 * Tells the user a NOTIFY output rule matched: an in-app toast (click selects the session) and a
 * desktop notification when possible. Events arrive only through the poller's tick; each rule of
 * each session speaks at most once per {@code quiet} period, so a flood of matches is one toast.
 */
public final class RuleNotifier {
    public static final Duration DEFAULT_QUIET = Duration.ofSeconds(10);
    private final ToastStack toasts;
    private final BiConsumer<String, String> desktop;
    private final Consumer<SessionRow> select;
    private final Clock clock;
    private final Duration quiet;
    private final Map<String, Instant> lastShown = new HashMap<>();
    /**
     * Matches from before this window opened are history (Facts lists them), not news: a new window
     * sees every event of every session on its first tick, and once toasted an 18-minute-old match.
     */
    private final Instant opened;

    /** @param desktop receives (title, body) for the desktop notification, e.g. {@code DesktopNotifier::notify} */
    public RuleNotifier(ToastStack toasts, BiConsumer<String, String> desktop, Consumer<SessionRow> select,
                        Clock clock, Duration quiet) {
        this.toasts = toasts;
        this.desktop = desktop;
        this.select = select;
        this.clock = clock;
        this.quiet = quiet;
        this.opened = clock.instant();
    }

    /** Called on the FX thread with a row's events that are new since the previous tick. */
    public void newEvents(SessionRow row, List<SessionInsight.Event> fresh) {
        for (SessionInsight.Event e : fresh) {
            if (e.kind() == SessionInsight.Kind.NOTIFY && !before(e) && allowed(row.id() + "\u0000" + e.rule())) {
                String title = "rule matched: " + row.snapshot().command();
                String body = e.message();
                Label heading = new Label("\u25C6  " + abbreviate(title));
                heading.getStyleClass().add("toast-rule");
                toasts.show(heading, body, () -> select.accept(row));
                desktop.accept("runboard \u2014 " + abbreviate(title), body);
            }
        }
    }

    private boolean before(SessionInsight.Event e) {
        return e.at() != null && e.at().isBefore(opened);
    }

    private boolean allowed(String key) {
        Instant now = clock.instant();
        Instant last = lastShown.get(key);
        if (last != null && now.isBefore(last.plus(quiet))) {
            return false;
        }
        lastShown.put(key, now);
        return true;
    }

    private static String abbreviate(String s) {
        String one = s.replace('\n', ' ');
        return one.length() <= 80 ? one : one.substring(0, 79) + "\u2026";
    }
}
