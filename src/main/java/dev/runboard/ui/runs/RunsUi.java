package dev.runboard.ui.runs;

import dev.runboard.session.SessionService;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.ui.sessions.SessionsViewModel;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TableView;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToolBar;

/**
 * What the window shows of a command's runs: the Progress column and the "Same command" filter in
 * the main view ({@link #install}), and the History tab for the detail pane's tabs
 * ({@link #historyTab}), which the window adds once that pane is loaded.
 */
public final class RunsUi {
    private RunsUi() {
    }

    /** The Progress column in {@code table}, and the "Same command" toggle right after {@code statusChoice} in {@code toolBar}. */
    public static void install(TableView<SessionRow> table, ToolBar toolBar, Node statusChoice, SessionsViewModel sessions,
                               ReadOnlyObjectProperty<SessionRow> selected) {
        ProgressColumn.install(table);
        ToggleButton same = new SameCommandFilter(sessions.sameCommandProperty(), selected).toggle();
        int at = toolBar.getItems().indexOf(statusChoice);
        toolBar.getItems().add(at < 0 ? toolBar.getItems().size() : at + 1, same);
    }

    /** The History tab: the selected command's earlier runs. */
    public static Tab historyTab(SessionService engine, UiTasks tasks, ReadOnlyObjectProperty<SessionRow> selected) {
        return new HistoryTab(engine, tasks, selected).tab();
    }
}
