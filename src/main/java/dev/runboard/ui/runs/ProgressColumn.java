package dev.runboard.ui.runs;

import dev.runboard.session.SessionSnapshot;
import dev.runboard.ui.common.HoverTooltip;
import dev.runboard.ui.sessions.SessionRow;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * The sessions table's Progress column: for a running session whose command has earlier
 * successful runs, a bar with the remaining time; "longer than usual" once it outgrew them all.
 * It reads the snapshot the poller already made, so it costs no work of its own.
 */
final class ProgressColumn extends TableColumn<SessionRow, SessionSnapshot> {

    ProgressColumn() {
        super("Progress");
        setId("progressColumn");
        // Its bar and "99 % · 999 s left" whole (197 px at the theme's 14 px font), at its minimum too:
        // at 90 px the row's time left read "1..." at 1024 px. ResponsiveColumns hides other columns first.
        setPrefWidth(200);
        setMinWidth(200);
        setSortable(false);
        setCellValueFactory(c -> c.getValue().snapshotProperty());
        setCellFactory(c -> new Cell());
    }

    /** Adds the column after the Elapsed one (or at the end when there is none). */
    static void install(TableView<SessionRow> table) {
        int at = table.getColumns().size();
        for (int i = 0; i < table.getColumns().size(); i++) {
            if ("Elapsed".equals(table.getColumns().get(i).getText())) {
                at = i + 1;
            }
        }
        table.getColumns().add(at, new ProgressColumn());
    }

    private static final class Cell extends TableCell<SessionRow, SessionSnapshot> {
        private ProgressBar bar; // made for the first row with a bar to show: a history's rows have none
        private final HoverTooltip tip = new HoverTooltip(this);

        Cell() {
            getStyleClass().add("progress-cell");
            setContentDisplay(ContentDisplay.LEFT);
            setGraphicTextGap(6);
        }

        @Override
        protected void updateItem(SessionSnapshot s, boolean empty) {
            super.updateItem(s, empty);
            String text = empty ? "" : ProgressText.of(s);
            if (text.isEmpty()) {
                setText(null);
                setGraphic(null);
                tip.setText(null);
                return;
            }
            boolean longer = s.longerThanUsual();
            setText(text);
            // Longer than usual: no bar at all, a full or creeping bar would be confidently wrong.
            if (longer) {
                setGraphic(null);
            } else {
                bar().setProgress(ProgressText.bar(s));
                setGraphic(bar);
            }
            tip.setText(longer ? "Running longer than every earlier successful run of this command" : ProgressText.method(s));
        }

        private ProgressBar bar() {
            if (bar == null) {
                bar = new ProgressBar(0);
                bar.setMaxWidth(60);
                bar.setPrefWidth(60);
            }
            return bar;
        }
    }
}
