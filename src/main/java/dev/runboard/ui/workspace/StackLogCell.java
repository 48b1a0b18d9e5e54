package dev.runboard.ui.workspace;

import javafx.scene.control.ListCell;
import javafx.scene.text.Text;

/**
 * A line of the stack's Logs tab: its command's name in that command's colour (the graphic), then the
 * line (the cell's text). One line high whatever the text, so the list can scroll to its tail exactly.
 */
final class StackLogCell extends ListCell<StackLogViewModel.Line> {
    private final Text prefix = new Text();

    StackLogCell() {
        getStyleClass().add("ws-log-cell");
        setGraphicTextGap(0);
    }

    @Override
    protected void updateItem(StackLogViewModel.Line line, boolean empty) {
        super.updateItem(line, empty);
        if (empty || line == null) {
            setText(null);
            setGraphic(null);
            return;
        }
        prefix.setText(line.prefix());
        prefix.getStyleClass().setAll("ws-log-name", "ws-log-colour-" + line.colour());
        setGraphic(prefix);
        setText(line.text());
    }
}
