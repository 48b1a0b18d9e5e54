package dev.runboard.ui.common;

import javafx.scene.control.Control;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;

/**
 * A control's tooltip, made the first time the pointer enters the control rather than with it. A
 * table builds a screenful of cells at once (and again as it scrolls), and a {@link Tooltip} per
 * cell is a popup control each, with its own styling, built and installed whether or not anyone
 * hovers over it: with a history of thousands of rows, the cells' tooltips were part of the frame
 * that first shows them (docs/BENCHMARKS.md §14). The text is kept until then; the tooltip, once
 * made, is reused for every later text. FX thread only.
 */
public final class HoverTooltip {
    private final Control owner;
    private String text;
    private Tooltip tooltip;

    public HoverTooltip(Control owner) {
        this.owner = owner;
        // Installed on entering: the tooltip's own handlers then see the moves that show it.
        owner.addEventHandler(MouseEvent.MOUSE_ENTERED, e -> install());
    }

    /** The tooltip's text from now on; null for none. */
    public void setText(String text) {
        this.text = text;
        if (text == null) {
            if (tooltip != null && owner.getTooltip() == tooltip) {
                owner.setTooltip(null);
            }
        } else if (tooltip != null || owner.isHover()) {
            install();
        }
    }

    private void install() {
        if (text == null) {
            return;
        }
        if (tooltip == null) {
            tooltip = new Tooltip(text);
        }
        tooltip.setText(text);
        if (owner.getTooltip() != tooltip) {
            owner.setTooltip(tooltip);
        }
    }
}
