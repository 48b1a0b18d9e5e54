package dev.runboard.ui.window;

import dev.runboard.ui.sessions.SessionRow;
import java.util.function.Function;
import javafx.scene.control.TableCell;
import javafx.scene.control.Tooltip;

/** A table cell that shows its live value through a formatter, optionally with the raw value as tooltip. */
final class FormattedCell<T> extends TableCell<SessionRow, T> {
    private final Function<T, String> format;
    private final Function<T, String> tooltip;

    FormattedCell(Function<T, String> format, Function<T, String> tooltip, String... styleClasses) {
        this.format = format;
        this.tooltip = tooltip;
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
            setTooltip(null);
            return;
        }
        setText(format.apply(item));
        if (tooltip != null) {
            String tip = tooltip.apply(item);
            if (getTooltip() == null) {
                setTooltip(new Tooltip(tip));
            } else {
                getTooltip().setText(tip);
            }
        }
    }
}
