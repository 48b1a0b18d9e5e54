package dev.runboard.ui.runs;

import dev.runboard.session.SessionSnapshot;
import dev.runboard.ui.common.Formats;

/** How a running session's progress reads in the row and the History tab. */
final class ProgressText {
    static final String LONGER = "longer than usual";

    private ProgressText() {
    }

    /** "45 % · 12.0s left", "longer than usual", or "" when there is no estimate. */
    static String of(SessionSnapshot s) {
        if (s == null || !s.isRunning()) {
            return "";
        }
        if (s.longerThanUsual()) {
            return LONGER;
        }
        if (s.progress() == null) {
            return "";
        }
        String eta = s.etaSeconds() == null ? "" : " \u00b7 " + Formats.seconds(Math.ceil(s.etaSeconds())) + " left";
        return Math.round(s.progress() * 100) + " %" + eta;
    }

    /** How the estimate was made, for a tooltip: which of the two predictors, and why it was picked. */
    static String method(SessionSnapshot s) {
        return "output".equals(s.progressBasis())
                ? "Estimated by output: bytes written against the earlier successful runs' (their output grew steadily)"
                : "Estimated by time: elapsed against the earlier successful runs' duration (their output came unevenly)";
    }

    /** The bar's value: the progress, or -1 (indeterminate) when longer than usual, 0 when unknown. */
    static double bar(SessionSnapshot s) {
        if (s == null || !s.isRunning()) {
            return 0;
        }
        return s.longerThanUsual() ? -1 : s.progress() == null ? 0 : s.progress();
    }
}
