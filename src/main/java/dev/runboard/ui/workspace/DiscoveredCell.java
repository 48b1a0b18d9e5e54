package dev.runboard.ui.workspace;

import dev.runboard.workspace.DiscoveredCommand;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** A discovered command: where it was found, what it runs, and one-click import. */
final class DiscoveredCell extends ListCell<DiscoveredCommand> {
    private final Label source = new Label();
    private final Label name = new Label();
    private final Label command = new Label();
    private final Button importButton = new Button("Import");
    private final HBox box;

    DiscoveredCell(WorkspaceViewModel model) {
        // Cells as wide as the list, never wider: long commands end in an ellipsis, buttons stay in view.
        setPrefWidth(0);
        source.getStyleClass().add("ws-source");
        source.setMinWidth(USE_PREF_SIZE);
        name.getStyleClass().add("ws-command-name");
        command.getStyleClass().add("ws-command-text");
        command.setMinWidth(0);
        HBox title = new HBox(6, name, source);
        title.setAlignment(Pos.CENTER_LEFT);
        VBox text = new VBox(1, title, command);
        text.setMinWidth(0);
        HBox.setHgrow(text, Priority.ALWAYS);
        importButton.getStyleClass().addAll("ws-import-button", "small");
        importButton.setMinWidth(USE_PREF_SIZE);
        importButton.setOnAction(e -> {
            if (getItem() != null) {
                model.importDiscovered(getItem());
            }
        });
        box = new HBox(8, text, importButton);
        box.setAlignment(Pos.CENTER_LEFT);
    }

    @Override
    protected void updateItem(DiscoveredCommand d, boolean empty) {
        super.updateItem(d, empty);
        setText(null);
        if (empty || d == null) {
            setGraphic(null);
            setTooltip(null);
            return;
        }
        source.setText(d.source());
        name.setText(d.name());
        command.setText(d.command().displayCommand());
        importButton.setId("import-" + d.name());
        setTooltip(new Tooltip("From " + d.source() + ": " + d.command().displayCommand()
                + (d.command().cwd() == null ? "" : "\nin " + d.command().cwd()) + "\nImport adds it to runboard.yaml"
                + (d.dropped().isEmpty() ? "" : "\nNot imported: " + String.join("; ", d.dropped()))));
        setGraphic(box);
    }
}
