package dev.runboard.ui.detail;

import java.util.ArrayList;
import java.util.List;

/** Find in output by regex, kept apart from the cells so it is plain code (no JavaFX). */
final class FindMatches {
    /** The last regex compiled (FX thread only): every cell of a render asks for the same one. */
    private static String compiledSource;
    private static java.util.regex.Pattern compiled;

    private FindMatches() {
    }

    /** Where the case-insensitive regex {@code query} matches {@code plain} (an invalid one matches nothing). */
    static List<int[]> ofRegex(String plain, String query) {
        List<int[]> found = new ArrayList<>();
        java.util.regex.Pattern p = pattern(query);
        if (p == null) {
            return found;
        }
        java.util.regex.Matcher m = p.matcher(plain);
        while (m.find()) {
            if (m.end() == m.start()) {
                continue; // an empty match (e.g. "a*") marks nothing
            }
            found.add(new int[] {m.start(), m.end()});
        }
        return found;
    }

    /** The compiled regex, or null when the query is empty or not a valid regex. */
    static java.util.regex.Pattern pattern(String query) {
        if (query == null || query.isEmpty()) {
            return null;
        }
        if (!query.equals(compiledSource)) {
            compiledSource = query;
            try {
                compiled = java.util.regex.Pattern.compile(query, java.util.regex.Pattern.CASE_INSENSITIVE);
            } catch (java.util.regex.PatternSyntaxException e) {
                compiled = null;
            }
        }
        return compiled;
    }
}
