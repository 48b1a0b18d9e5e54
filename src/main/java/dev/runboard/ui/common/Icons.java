package dev.runboard.ui.common;

import javafx.beans.value.ObservableValue;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tooltip;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * Icon buttons for the toolbars: a button keeps its text (for screen readers, mnemonics and the
 * tooltip) but shows only its icon, so every action stays on screen down to the window's minimum
 * size. Icons come from Ikonli's Material Design 2 pack ({@code mdi2x-name} literals).
 */
public final class Icons {
    private Icons() {
    }

    /**
     * Finds Ikonli's icon handlers and loads their font on a thread of its own: ~50 ms that the
     * window's first frame would otherwise spend on the FX thread, for the tool bar's first icon.
     * Call once the toolkit has started and before the window is built (Application.init); the
     * first {@link #icon} waits for it if it has not finished.
     */
    public static void warmUp() {
        Thread t = new Thread(() -> icon("mdi2r-restart"), "runboard-icons");
        t.setDaemon(true);
        t.start();
    }

    /** The icon alone, sized to the surrounding text. */
    public static FontIcon icon(String literal) {
        FontIcon icon = new FontIcon(literal);
        icon.getStyleClass().add("rb-icon");
        return icon;
    }

    /** Shows only {@code literal}'s icon; the tooltip says the button's text and, when given, its shortcut. */
    public static <T extends ButtonBase> T iconOnly(T button, String literal, String shortcut) {
        button.setGraphic(icon(literal));
        button.setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        button.getStyleClass().add("icon-button");
        button.setMinWidth(Labeled.USE_PREF_SIZE);
        String text = button.getText().replace("_", "");
        button.setTooltip(new Tooltip(shortcut == null ? text : text + "  (" + shortcut + ")"));
        button.setAccessibleText(text);
        return button;
    }

    /** As above for a button whose word changes (Pause / Resume): the icon and tooltip follow it. */
    public static <T extends ButtonBase> T iconOnly(T button, ObservableValue<String> word,
                                                    java.util.function.Function<String, String> literalOf) {
        button.setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        button.getStyleClass().add("icon-button");
        button.setMinWidth(Labeled.USE_PREF_SIZE);
        Tooltip tip = button.getTooltip() != null ? button.getTooltip() : new Tooltip();
        button.setTooltip(tip);
        String detail = tip.getText() == null ? "" : tip.getText();
        Runnable show = () -> {
            button.setGraphic(icon(literalOf.apply(word.getValue())));
            tip.setText(detail.isEmpty() ? word.getValue() : word.getValue() + ": " + detail);
            button.setAccessibleText(word.getValue());
        };
        word.addListener((o, was, now) -> show.run());
        show.run();
        return button;
    }
}
