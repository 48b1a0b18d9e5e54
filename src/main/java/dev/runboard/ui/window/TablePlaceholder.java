package dev.runboard.ui.window;

import dev.runboard.ui.sessions.SessionsViewModel;
import dev.runboard.ui.sessions.StatusFilter;
import javafx.beans.binding.Bindings;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.layout.VBox;

/**
 * What the empty table says: while the history loads, how many sessions are coming; with no
 * sessions at all, how to start one; with sessions hidden by the filter, that none match and a
 * button that clears the filter (it used to say "No sessions yet" with 87 sessions present).
 */
final class TablePlaceholder {
    private TablePlaceholder() {
    }

    static void install(TableView<?> table, SessionsViewModel sessions) {
        Label text = new Label();
        text.setId("tablePlaceholder");
        text.getStyleClass().add("placeholder-label");
        text.setWrapText(true);
        var filtering = Bindings.createBooleanBinding(() -> !sessions.rows().isEmpty(), sessions.rows());
        text.textProperty().bind(Bindings.createStringBinding(() -> sessions.loadingProperty().get() >= 0 && sessions.rows().isEmpty()
                ? loading(sessions.loadingProperty().get())
                : sessions.rows().isEmpty()
                ? "No sessions yet. Press Ctrl+N to run a command."
                : "No sessions match " + describe(sessions) + " (" + sessions.rows().size() + " hidden).",
                sessions.rows(), sessions.filterTextProperty(), sessions.statusFilterProperty(), sessions.loadingProperty()));
        Button clear = new Button("Clear filter");
        clear.setId("clearFilterButton");
        clear.setOnAction(e -> {
            sessions.filterTextProperty().set("");
            sessions.statusFilterProperty().set(StatusFilter.ALL);
        });
        clear.visibleProperty().bind(filtering);
        clear.managedProperty().bind(filtering);
        VBox box = new VBox(10, text, clear);
        box.setAlignment(Pos.CENTER);
        box.setMaxWidth(480);
        table.setPlaceholder(box);
    }

    /** While the history loads (after the first frame): "Loading 1,000 sessions…". */
    static String loading(int sessions) {
        return sessions == 0 ? "Loading the history\u2026"
                : "Loading " + String.format(java.util.Locale.ROOT, "%,d", sessions) + (sessions == 1 ? " session" : " sessions") + "\u2026";
    }

    private static String describe(SessionsViewModel sessions) {
        String text = sessions.filterTextProperty().get();
        StatusFilter status = sessions.statusFilterProperty().get();
        boolean byText = text != null && !text.isBlank();
        boolean byStatus = status != null && status != StatusFilter.ALL;
        if (byText && byStatus) {
            return "\u201C" + text.strip() + "\u201D among " + status;
        }
        return byText ? "\u201C" + text.strip() + "\u201D" : byStatus ? "the status filter " + status : "the filter";
    }
}
