package dev.runboard.ui.window;

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

    /**
     * Shows and hides columns for the table's width and the person's choice; call after the choice changed.
     * Worked out afresh each time from what is wanted and the width, never from what an earlier call hid:
     * keeping a stack of stepped-aside columns left a column that became wanted later (Host, once a remote
     * session is listed) waiting for room that less needed columns kept, depending on the order things
     * happened in.
     */
    void fit() {
        Set<TableColumn<?, ?>> shown = new HashSet<>();
        for (TableColumn<?, ?> c : table.getColumns()) {
            // A column whose visibility is bound has an owner that shows it (the workspace's tag column): it only takes room.
            if (c.visibleProperty().isBound() ? c.isVisible() : wanted.test(c)) {
                shown.add(c);
            }
        }
        double width = table.getWidth();
        if (width > 0) {
            for (TableColumn<?, ?> c : hideFirst) {
                if (needed(shown) <= width) {
                    break;
                }
                shown.remove(c);
            }
        }
        for (TableColumn<?, ?> c : table.getColumns()) {
            boolean show = shown.contains(c);
            if (!c.visibleProperty().isBound() && c.isVisible() != show) {
                c.setVisible(show);
            }
        }
    }

    private static double needed(Set<TableColumn<?, ?>> shown) {
        double sum = SLACK;
        for (TableColumn<?, ?> c : shown) {
            sum += c.getMinWidth();
        }
        return sum;
    }
}
