package dev.runboard.session;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A regex watched in a session's output, line by line, and what to do when a line matches:
 * highlight it, end the session as failed, or tell the user.
 */
public record OutputRule(String pattern, Action action) {

    /** What a match does. */
    public enum Action {
        /** Mark matching lines in the tail and the viewer. */
        HIGHLIGHT,
        /** End the session's tree at once and record it {@code failed}, with the rule as the reason. */
        FAIL,
        /** Tell the user (in-app, and on the desktop when available), at most once per rule per few seconds. */
        NOTIFY;

        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Parses "fail", "FAIL", "highlight", "notify" (hand-written settings.json uses either case). */
        public static Action parse(String text) {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        }
    }

    public OutputRule {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(action, "action");
    }

    public static OutputRule failOn(String regex) {
        return new OutputRule(regex, Action.FAIL);
    }

    /** Throws {@link InvalidSpecException} naming the {@code rules} field when the regex does not compile. */
    public Pattern compile() {
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new InvalidSpecException("rules", "output rule /" + pattern + "/ is not a valid regex: " + e.getDescription());
        }
    }

    /**
     * Throws {@link InvalidSpecException} when the rule would match every line: its pattern finds a
     * match in an empty line and in a line of other text ({@code .*}, {@code x*}, {@code |ERROR},
     * {@code ^}), so a fail rule would end the session at its first line of output. Asked where a rule
     * is given (a new session, settings), not where a record is read back: one runboard accepted stays
     * readable.
     */
    public void checkMatchesSomething() {
        Pattern p = compile();
        if (p.matcher("").find() && p.matcher("\u0001runboard\u0001").find()) {
            String then = switch (action) {
                case FAIL -> "would end the session at its first line of output";
                case NOTIFY -> "would notify on every line";
                case HIGHLIGHT -> "would highlight every line";
            };
            throw new InvalidSpecException("rules", "output rule /" + pattern + "/ matches every line (it matches an empty string)"
                    + " and " + then + "; give the text to look for, e.g. ERROR or 'error:'");
        }
    }

    public String describe() {
        return action.word() + " on /" + pattern + "/";
    }
}
