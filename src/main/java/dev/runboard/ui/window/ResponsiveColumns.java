package dev.runboard.ui.window;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import javafx.collections.ListChangeListener;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * Keeps every shown column at least as wide as its title: when the table is narrower than the
 * shown columns' minimum widths, the least needed columns step aside (in the order given) and come
 * back as soon as there is room again. So a small window or an open sidebar costs columns, never
 * readable titles, and the table needs no horizontal scrolling. A column the person chose not to
 * see ({@link ColumnChoice}) stays hidden whatever the room, and one chosen again comes back as
 * soon as it fits.
 */
final class ResponsiveColumns {
    /** Room for the vertical scroll bar and the header's corner. */
    private static final double SLACK = 18;
    private final TableView<?> table;
    private final List<? extends TableColumn<?, ?>> hideFirst;
    private final Predicate<TableColumn<?, ?>> wanted;
    /** The columns stepped aside for room, the last one on top: it comes back first. */
    private final Deque<TableColumn<?, ?>> hidden = new ArrayDeque<>();
    /** The columns hidden because the person chose so. */
    private final Set<TableColumn<?, ?>> chosenAway = new HashSet<>();

    private ResponsiveColumns(TableView<?> table, List<? extends TableColumn<?, ?>> hideFirst,
            Predicate<TableColumn<?, ?>> wanted) {
        this.table = table;
        this.hideFirst = hideFirst;
        this.wanted = wanted;
    }

    /**
     * {@code hideFirst}: the columns that may step aside, the least needed first; {@code wanted}: whether the
     * person wants a column shown at all (asked at each {@link #fit}).
     */
    static ResponsiveColumns install(TableView<?> table, List<? extends TableColumn<?, ?>> hideFirst,
            Predicate<TableColumn<?, ?>> wanted) {
        ResponsiveColumns columns = new ResponsiveColumns(table, hideFirst, wanted);
        table.widthProperty().addListener((o, was, now) -> columns.fit());
        table.getColumns().addListener((ListChangeListener<TableColumn<?, ?>>) c -> columns.fit());
        columns.fit();
        return columns;
    }

    /** Shows and hides columns for the table's width and the person's choice; call after the choice changed. */
    void fit() {
        for (TableColumn<?, ?> c : table.getColumns()) {
            if (!wanted.test(c)) {
                if (chosenAway.add(c)) {
                    c.setVisible(false);
                    hidden.remove(c);
                }
            } else if (chosenAway.remove(c)) {
                // Chosen again: one that may step aside waits for room like the others; any other is shown now.
                if (hideFirst.contains(c)) {
                    hidden.push(c);
                } else {
                    c.setVisible(true);
                }
            }
        }
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
