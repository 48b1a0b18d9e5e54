package dev.runboard.ui.window;

import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * Gives the Command column a quarter of a wide table: the table's policy gives what is left over
 * to its last column, Last line, so on a wide screen the two columns whose text is long get the
 * room, and Working dir and the fixed-width columns keep theirs (at 1920 px Command had stayed at
 * its 208 px while an empty Progress column and Working dir took more). Below the width where a
 * quarter is more than its own width nothing changes. It acts when the table's width changes; a
 * width the person gave the column by hand holds until then.
 */
final class CommandRoom {
    private static final double SHARE = 0.25;
    /** A command longer than this is read in the detail pane; more width here would starve Last line. */
    private static final double MAX = 560;

    private CommandRoom() {
    }

    static void install(TableView<?> table, TableColumn<?, ?> command) {
        double own = command.getPrefWidth();
        table.widthProperty().addListener((o, was, now) -> {
            double want = Math.max(own, Math.min(MAX, Math.round(now.doubleValue() * SHARE)));
            if (Math.abs(command.getPrefWidth() - want) >= 1) {
                command.setPrefWidth(want);
            }
        });
    }
}
