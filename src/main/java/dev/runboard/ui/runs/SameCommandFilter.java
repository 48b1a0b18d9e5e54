package dev.runboard.ui.runs;

import dev.runboard.session.RunKey;
import dev.runboard.ui.sessions.SessionRow;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;

/**
 * The sessions view's "Same command" filter: while on, the list shows only the runs of the command
 * that was selected when it was switched on (beside the text and status filters).
 */
final class SameCommandFilter {
    private final ToggleButton toggle = new ToggleButton("Same command");

    SameCommandFilter(ObjectProperty<RunKey> sameCommand, ReadOnlyObjectProperty<SessionRow> selected) {
        toggle.setId("sameCommandToggle");
        toggle.setTooltip(new Tooltip("Show only the runs of the selected session's command (same command, shell or argv, folder)"));
        toggle.disableProperty().bind(selected.isNull().and(toggle.selectedProperty().not()));
        toggle.selectedProperty().addListener((o, was, on) ->
                sameCommand.set(on && selected.get() != null ? RunKey.of(selected.get().spec()) : null));
        sameCommand.addListener((o, was, now) -> toggle.setSelected(now != null));
    }

    ToggleButton toggle() {
        return toggle;
    }
}
