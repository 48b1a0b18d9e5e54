package dev.runboard.ui.ansi;

import dev.runboard.session.OutputRule;
import dev.runboard.session.WatchSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A session's HIGHLIGHT rules, compiled once when the session is shown (not per cell update).
 * Lines are matched on their plain text, ANSI escapes already removed by the parser.
 */
public final class RuleHighlights {
    public static final RuleHighlights NONE = new RuleHighlights(List.of());
    private final List<Pattern> patterns;

    private RuleHighlights(List<Pattern> patterns) {
        this.patterns = List.copyOf(patterns);
    }

    public static RuleHighlights of(WatchSpec watch) {
        if (watch == null) {
            return NONE;
        }
        List<Pattern> out = new ArrayList<>();
        for (OutputRule r : watch.rules()) {
            if (r.action() == OutputRule.Action.HIGHLIGHT) {
                try {
                    out.add(r.compile());
                } catch (RuntimeException invalid) {
                    // a spec is validated before launch; a bad stored rule just highlights nothing
                }
            }
        }
        return out.isEmpty() ? NONE : new RuleHighlights(out);
    }

    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    /** True when any highlight rule finds a match in the line's plain text. */
    public boolean matches(String plain) {
        for (Pattern p : patterns) {
            if (p.matcher(plain).find()) {
                return true;
            }
        }
        return false;
    }
}
