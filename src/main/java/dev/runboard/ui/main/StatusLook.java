package dev.runboard.ui.main;

import dev.runboard.session.SessionStatus;
import javafx.css.PseudoClass;

/** How a status looks: its glyph and its CSS pseudo-class ({@code :running}, {@code :failed}, ...). */
public final class StatusLook {
    private StatusLook() {
    }

    public static String glyph(SessionStatus s) {
        return switch (s) {
            case RUNNING -> "\u25B6";   // ▶
            case COMPLETED -> "\u2714"; // ✔
            case FAILED -> "\u2716";    // ✖
            case TIMEOUT -> "\u25F7";   // ◷
            case KILLED -> "\u25A0";    // ■
            case UNKNOWN -> "?";
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
