package dev.runboard.ui.workspace;

import dev.runboard.session.SessionStatus;
import dev.runboard.ui.common.StatusLook;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** A sidebar line: a group header with "Run group", or a command with its last status and a run button. */
final class CommandCell extends ListCell<CommandEntry> {
    static final String NEVER_RUN = "\u25CB"; // ○
    static final String RAN = "\u25CF"; // ●
    private final WorkspaceViewModel model;
    private final Label status = new Label();
    private final Label name = new Label();
    private final Label command = new Label();
    private final Button run = new Button("\u25B6");
    private final HBox commandBox;
    private final Label groupTitle = new Label();
    private final Button runGroup = new Button("\u25B6 Run group");
    private final HBox groupBox;
    private final ChangeListener<SessionStatus> statusChanged = (o, was, now) -> showStatus(now);
    /** ▶ starts a command with what it depends on, as `up NAME` does; this menu offers it alone, explicitly. */
    private final javafx.scene.control.MenuItem runItem = new javafx.scene.control.MenuItem("Run (with what it depends on)");
    private final javafx.scene.control.MenuItem runAloneItem = new javafx.scene.control.MenuItem("Run alone");
    private final javafx.scene.control.ContextMenu commandMenu = new javafx.scene.control.ContextMenu(runItem, runAloneItem);
    private CommandEntry shown;

    CommandCell(WorkspaceViewModel model) {
        this.model = model;
        // Cells as wide as the list, never wider: long commands end in an ellipsis, buttons stay in view.
        setPrefWidth(0);
        status.getStyleClass().add("ws-status");
        status.setMinWidth(16);
        name.getStyleClass().add("ws-command-name");
        command.getStyleClass().add("ws-command-text");
        command.setMinWidth(0);
        VBox text = new VBox(1, name, command);
        text.setMinWidth(0);
        HBox.setHgrow(text, Priority.ALWAYS);
        run.getStyleClass().addAll("ws-run-button", "flat");
        run.setMinWidth(USE_PREF_SIZE);
        commandBox = new HBox(8, status, text, run);
        commandBox.setAlignment(Pos.CENTER_LEFT);
        commandBox.getStyleClass().add("ws-command");
        runAloneItem.setId("runAloneItem");
        runItem.setOnAction(e -> {
            if (shown != null && !shown.isGroup()) {
                model.run(shown.name());
            }
        });
        runAloneItem.setOnAction(e -> {
            if (shown != null && !shown.isGroup()) {
                model.runAlone(shown.name());
            }
        });

        groupTitle.getStyleClass().add("ws-group-title");
        groupTitle.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(groupTitle, Priority.ALWAYS);
        runGroup.getStyleClass().addAll("ws-run-group-button", "flat", "small");
        runGroup.setMinWidth(USE_PREF_SIZE);
        groupBox = new HBox(8, groupTitle, runGroup);
        groupBox.setAlignment(Pos.CENTER_LEFT);
        groupBox.getStyleClass().add("ws-group");
        setOnMouseClicked(e -> {
            if (e.getClickCount() == 2 && shown != null && !shown.isGroup()) {
                model.run(shown.name());
            }
        });
    }

    @Override
    protected void updateItem(CommandEntry entry, boolean empty) {
        super.updateItem(entry, empty);
        if (shown != null) {
            shown.lastStatusProperty().removeListener(statusChanged);
        }
        shown = empty ? null : entry;
        getStyleClass().removeAll("ws-group-cell", "ws-command-cell");
        setText(null);
        if (shown == null) {
            setGraphic(null);
            setTooltip(null);
            setContextMenu(null);
            return;
        }
        if (shown.isGroup()) {
            getStyleClass().add("ws-group-cell");
            groupTitle.setText(shown.name());
            runGroup.setId("runGroup-" + shown.name());
            runGroup.setOnAction(e -> model.runGroup(shown.name()));
            setGraphic(groupBox);
            setTooltip(null);
            setContextMenu(null);
        } else {
            getStyleClass().add("ws-command-cell");
            name.setText(shown.name());
            command.setText(shown.command().displayCommand());
            run.setId("run-" + shown.name());
            run.setOnAction(e -> model.run(shown.name()));
            shown.lastStatusProperty().addListener(statusChanged);
            showStatus(shown.lastStatusProperty().get());
            String cwd = shown.command().cwd() == null ? "" : "\nin " + shown.command().cwd();
            boolean needs = !shown.command().dependencies().isEmpty();
            String about = shown.command().description() == null ? "" : shown.command().description() + "\n";
            String off = shown.command().turnedOff() ? "\nDisabled: up does not start it and skips what depends on it" : "";
            setTooltip(new Tooltip(about + shown.command().displayCommand() + cwd + off + "\nDouble-click or ▶ to run"
                    + (needs ? " (after " + String.join(", ", shown.command().dependencies().keySet()) + "; right-click: Run alone)"
                    : "")));
            setContextMenu(commandMenu);
            setGraphic(commandBox);
        }
    }

    /** A dot coloured by the latest run's status (the run button already uses the ▶ glyph). */
    private void showStatus(SessionStatus s) {
        status.setText(s == null ? NEVER_RUN : RAN);
        for (SessionStatus each : SessionStatus.values()) {
            status.pseudoClassStateChanged(StatusLook.pseudoClass(each), each == s);
        }
        status.setAccessibleText(s == null ? "not run yet" : "last run " + s.word());
    }
}
