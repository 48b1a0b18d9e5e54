package dev.runboard.ui.search;

import dev.runboard.artifact.FileSearch;
import dev.runboard.artifact.RunSearch;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.ui.common.CloseKeys;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.viewer.ArtifactViewer;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.PatternSyntaxException;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToolBar;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * "Search all runs": a regex over the whole output of every session in the list (or of those whose
 * command contains a text: one command's history), by the same engine as {@code runboard grep}
 * ({@link RunSearch}), on a worker thread. Results are grouped by run (id, command, start), each
 * matching line under its run; activating a line (double-click or Enter) opens the viewer at it.
 * One window, brought back to the front when asked again.
 */
public final class RunSearchWindow {
    private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    private final Theme theme;
    private final UiTasks tasks;
    private final ArtifactViewer viewer;
    private final Supplier<List<SessionSnapshot>> sessions;
    private final AtomicLong generation = new AtomicLong();
    private Stage stage;
    private TextField query;
    private TextField command;
    private ToggleButton matchCase;
    private Label status;
    private TreeView<Result> results;

    /** A tree node: a run (line null) or one of its matching lines. */
    record Result(RunSearch.Run run, RunSearch.Line line, String label) {
        @Override
        public String toString() {
            return label;
        }
    }

    /** @param sessions the snapshots of the listed sessions, read on the FX thread when a search starts */
    public RunSearchWindow(Theme theme, UiTasks tasks, ArtifactViewer viewer, Supplier<List<SessionSnapshot>> sessions) {
        this.theme = theme;
        this.tasks = tasks;
        this.viewer = viewer;
        this.sessions = sessions;
    }

    /** Shows the window (made on first use), its search field focused. */
    public Stage show(Window owner) {
        if (stage == null) {
            stage = build(owner);
        }
        stage.show();
        stage.toFront();
        query.requestFocus();
        return stage;
    }

    private Stage build(Window owner) {
        query = new TextField();
        query.setId("runSearchQuery");
        query.setPromptText("Regex to find in the output of every run (Enter)");
        HBox.setHgrow(query, Priority.ALWAYS);
        command = new TextField();
        command.setId("runSearchCommand");
        command.setPromptText("Only runs whose command contains\u2026");
        command.setPrefColumnCount(16);
        command.setOnAction(e -> search());
        matchCase = new ToggleButton("Aa");
        matchCase.setId("runSearchCase");
        Button go = new Button("Search");
        go.setId("runSearchGo");
        go.setOnAction(e -> search());
        query.setOnAction(e -> search());
        status = new Label("Searches the whole output of each run in the list, running ones too.");
        status.setId("runSearchStatus");
        results = new TreeView<>(new TreeItem<>());
        results.setId("runSearchResults");
        results.setShowRoot(false);
        results.getStyleClass().add("run-search-results");
        results.setOnMouseClicked(e -> {
            if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2) {
                openSelected();
            }
        });
        results.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                openSelected();
            }
        });
        BorderPane root = new BorderPane(results);
        root.setTop(new ToolBar(query, matchCase, command, go));
        HBox bottom = new HBox(status);
        bottom.getStyleClass().add("status-bar");
        bottom.setPadding(new Insets(4, 8, 4, 8));
        root.setBottom(bottom);
        Stage s = new Stage();
        if (owner != null) {
            s.initOwner(owner);
            if (owner instanceof Stage parent) {
                s.getIcons().setAll(parent.getIcons());
            }
        }
        s.setTitle("Search all runs \u2014 runboard");
        Scene scene = new Scene(root, 900, 560);
        theme.register(scene);
        s.setScene(scene);
        s.setOnHidden(e -> generation.incrementAndGet()); // a search still going stops
        CloseKeys.install(s);
        dev.runboard.ui.common.ScreenFit.openWhole(s, 900, 560);
        // The keyboard to the search field once the window has it (asked before, it can land on the results).
        s.focusedProperty().addListener((o, was, now) -> {
            if (now && results.getRoot().getChildren().isEmpty()) {
                query.requestFocus();
            }
        });
        return s;
    }

    /** Starts a search (FX thread); the one before it stops. */
    void search() {
        String text = query.getText();
        if (text == null || text.isEmpty()) {
            return;
        }
        RunSearch engine;
        try {
            engine = new RunSearch(new FileSearch.Query(text, matchCase.isSelected()));
        } catch (PatternSyntaxException e) {
            status.setText("Not a valid regex: " + e.getDescription());
            return;
        }
        String only = command.getText() == null ? "" : command.getText().strip();
        List<RunSearch.Run> runs = sessions.get().stream()
                .filter(s -> s.rawOutput() != null && s.command().contains(only))
                .map(s -> new RunSearch.Run(s.sessionId(), s.command(), s.startedAt(), Path.of(s.rawOutput())))
                .toList();
        long gen = generation.incrementAndGet();
        results.getRoot().getChildren().clear();
        status.setText("Searching " + runs.size() + " runs\u2026");
        tasks.onFx(tasks.background(() -> {
            engine.search(runs, m -> tasks.fx(() -> {
                if (gen == generation.get()) {
                    results.getRoot().getChildren().add(runItem(m));
                }
            }), problem -> tasks.fx(() -> status.setText(problem)), () -> gen != generation.get());
            return null;
        }), (done, error) -> {
            if (gen != generation.get()) {
                return;
            }
            int found = results.getRoot().getChildren().size();
            long lines = results.getRoot().getChildren().stream().mapToLong(i -> i.getChildren().size()).sum();
            status.setText(error != null ? "Search failed: " + error.getMessage()
                    : found == 0 ? "No run printed a line matching " + text
                    : String.format(Locale.ROOT, "%,d lines in %d of %d runs (double-click a line to open it)", lines, found, runs.size()));
        });
    }

    private static TreeItem<Result> runItem(RunSearch.RunMatches m) {
        RunSearch.Run run = m.run();
        String head = run.id() + "  " + run.command().replace('\n', ' ')
                + (run.startedAt() == null ? "" : "  (started " + STARTED.format(run.startedAt()) + ")")
                + "  \u2014 " + m.lines().size() + (m.moreLines() > 0 ? "+" : "") + (m.lines().size() == 1 ? " line" : " lines");
        TreeItem<Result> item = new TreeItem<>(new Result(run, null, head));
        for (RunSearch.Line l : m.lines()) {
            item.getChildren().add(new TreeItem<>(new Result(run, l, l.number() + ": " + l.text())));
        }
        item.setExpanded(true);
        return item;
    }

    /** Opens the viewer on the selected line's run, at that line. */
    private void openSelected() {
        TreeItem<Result> item = results.getSelectionModel().getSelectedItem();
        if (item == null || item.getValue() == null) {
            return;
        }
        Result r = item.getValue();
        RunSearch.Line line = r.line() != null ? r.line()
                : item.getChildren().isEmpty() ? null : item.getChildren().get(0).getValue().line();
        if (line != null) {
            viewer.openAt(stage, r.run().file(), line.offset());
        }
    }
}
