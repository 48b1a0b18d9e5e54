package dev.runboard.ui.runs;

import dev.runboard.session.SessionService;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.ui.sessions.SessionsViewModel;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToolBar;
import javafx.scene.layout.Pane;

/**
 * Puts what the window shows of a command's runs into the main window once it is loaded: the
 * Progress column, the History tab (in {@code sideTabs}, the detail pane's tabs, which may not be
 * in the window yet) and the "Same command" filter. The others are found by id, so the window's
 * own views need not know of them; call it once the root is in its scene.
 */
public final class RunsUi {
    private RunsUi() {
    }

    @SuppressWarnings("unchecked")
    public static void install(Parent root, TabPane sideTabs, SessionService engine, UiTasks tasks, SessionsViewModel sessions,
                               ReadOnlyObjectProperty<SessionRow> selected) {
        // Split panes and tool bars show their items only once their skins exist: CSS makes them.
        root.applyCss();
        if (root.lookup("#sessionTable") instanceof TableView<?> table) {
            ProgressColumn.install((TableView<SessionRow>) table);
        }
        sideTabs.getTabs().add(new HistoryTab(engine, tasks, selected).tab());
        Node status = root.lookup("#statusChoice");
        if (status == null) {
            return;
        }
        ToggleButton same = new SameCommandFilter(sessions.sameCommandProperty(), selected).toggle();
        // In a ToolBar the items are not its skin's children (the skin rebuilds those): add to the items.
        for (Node n = status.getParent(); n != null; n = n.getParent()) {
            if (n instanceof ToolBar bar) {
                bar.getItems().add(bar.getItems().indexOf(status) + 1, same);
                return;
            }
        }
        if (status.getParent() instanceof Pane pane) {
            pane.getChildren().add(pane.getChildren().indexOf(status) + 1, same);
        }
    }
}
