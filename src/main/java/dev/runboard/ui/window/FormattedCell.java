package dev.runboard.ui.window;

import dev.runboard.ui.sessions.SessionRow;
import java.util.function.Function;
import javafx.scene.control.TableCell;
import dev.runboard.ui.common.HoverTooltip;

/** A table cell that shows its live value through a formatter, optionally with the raw value as tooltip. */
final class FormattedCell<T> extends TableCell<SessionRow, T> {
    private final Function<T, String> format;
    private final Function<T, String> tooltip;
    private final HoverTooltip tip;

    FormattedCell(Function<T, String> format, Function<T, String> tooltip, String... styleClasses) {
        this.format = format;
        this.tooltip = tooltip;
        this.tip = tooltip == null ? null : new HoverTooltip(this);
        getStyleClass().addAll(styleClasses);
    }

    FormattedCell(Function<T, String> format, String... styleClasses) {
        this(format, null, styleClasses);
    }

    @Override
    protected void updateItem(T item, boolean empty) {
        super.updateItem(item, empty);
        if (empty || item == null) {
            setText(null);
            if (tip != null) {
                tip.setText(null);
            }
            return;
        }
        setText(format.apply(item));
        if (tip != null) {
            tip.setText(tooltip.apply(item));
        }
    }
}
