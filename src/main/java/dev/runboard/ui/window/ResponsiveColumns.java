package dev.runboard.ui.window;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import javafx.collections.ListChangeListener;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * Keeps every shown column at least as wide as its title: when the table is narrower than the
 * shown columns' minimum widths, the least needed columns step aside (in the order given) and come
 * back as soon as there is room again. So a small window or an open sidebar costs columns, never
 * readable titles, and the table needs no horizontal scrolling.
 */
final class ResponsiveColumns {
    /** Room for the vertical scroll bar and the header's corner. */
    private static final double SLACK = 18;
    private final TableView<?> table;
    private final List<? extends TableColumn<?, ?>> hideFirst;
    private final Deque<TableColumn<?, ?>> hidden = new ArrayDeque<>();

    private ResponsiveColumns(TableView<?> table, List<? extends TableColumn<?, ?>> hideFirst) {
        this.table = table;
        this.hideFirst = hideFirst;
    }

    /** {@code hideFirst}: the columns that may step aside, the least needed first. */
    static void install(TableView<?> table, List<? extends TableColumn<?, ?>> hideFirst) {
        ResponsiveColumns columns = new ResponsiveColumns(table, hideFirst);
        table.widthProperty().addListener((o, was, now) -> columns.fit());
        table.getColumns().addListener((ListChangeListener<TableColumn<?, ?>>) c -> columns.fit());
        columns.fit();
    }

    private void fit() {
        double width = table.getWidth();
        if (width <= 0) {
            return;
        }
        for (TableColumn<?, ?> c : hideFirst) {
            if (needed() <= width) {
                break;
            }
            if (c.isVisible()) {
                c.setVisible(false);
                hidden.push(c);
            }
        }
        while (!hidden.isEmpty() && needed() + hidden.peek().getMinWidth() <= width) {
            hidden.pop().setVisible(true);
        }
    }

    private double needed() {
        double sum = SLACK;
        for (TableColumn<?, ?> c : table.getColumns()) {
            if (c.isVisible()) {
                sum += c.getMinWidth();
            }
        }
        return sum;
    }
}
