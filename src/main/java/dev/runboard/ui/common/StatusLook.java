package dev.runboard.ui.common;

import dev.runboard.session.SessionStatus;
import javafx.css.PseudoClass;

/**
 * How a status looks: its glyph and its CSS pseudo-class ({@code :running}, {@code :failed}, ...).
 * Every glyph is one DejaVu Sans has (regular and bold), so none shows as a missing-glyph box.
 */
public final class StatusLook {
    private StatusLook() {
    }

    public static String glyph(SessionStatus s) {
        return switch (s) {
            // Not the hourglass U+29D7: DejaVu Sans, the font a Debian desktop draws labels with, lacks it (a box).
            case PENDING -> "\u25CC";   // ◌ dotted circle
            case QUEUED -> "\u22EF";    // ⋯
            case RUNNING -> "\u25B6";   // ▶
            case PAUSED -> "\u275A\u275A"; // ❚❚
            case COMPLETED -> "\u2714"; // ✔
            case FAILED -> "\u2716";    // ✖
            case TIMEOUT -> "\u25F7";   // ◷
            case KILLED -> "\u25A0";    // ■
            case UNKNOWN -> "?";
            case SKIPPED -> "\u21B7";   // ↷
        };
    }

    public static PseudoClass pseudoClass(SessionStatus s) {
        return PseudoClass.getPseudoClass(s.word());
    }

    /** Turns on the pseudo-class of {@code status} and off every other one. */
    public static void apply(javafx.scene.Node node, SessionStatus status) {
        for (SessionStatus s : SessionStatus.values()) {
            node.pseudoClassStateChanged(pseudoClass(s), s == status);
        }
    }
}
