package dev.runboard.ui.runs;

import dev.runboard.session.Run;
import dev.runboard.session.RunHistory;
import dev.runboard.session.RunKey;
import dev.runboard.session.SessionService;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.Sizes;
import dev.runboard.ui.common.Formats;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.insight.Sparkline;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tab;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The detail pane's History tab: every run of the selected session's command (same command,
 * shell or argv, folder), a sparkline of their durations, the success rate and the median of the
 * recent good runs; the selected run's progress while it runs; and "Compare with previous run".
 * The history is gathered on a worker when the selection changes or a run ends.
 */
final class HistoryTab {
    private final SessionService engine;
    private final UiTasks tasks;
    private final ReadOnlyObjectProperty<SessionRow> row;
    private final Tab tab;
    private final Label summary = new Label();
    private final Label progressText = new Label();
    private final ProgressBar progressBar = new ProgressBar(0);
    private final HBox progressLine = new HBox(8, progressBar, progressText);
    private final Sparkline sparkline = new Sparkline("Durations", "duration-sparkline", Formats::seconds, 1);
    private final TableView<Run> runs = new TableView<>();
    private final Button comparePrevious = new Button("Compare with previous run");
    private final Button compareGreen = new Button("Compare with last green");
    private RunHistory history;
    private int generation;

    HistoryTab(SessionService engine, UiTasks tasks, ReadOnlyObjectProperty<SessionRow> row) {
        this.engine = engine;
        this.tasks = tasks;
        this.row = row;
        summary.setId("historySummary");
        summary.setWrapText(true);
        // Its lines whole: in a VBox above a table that grows, a wrapping label was squeezed to one cut line.
        summary.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        progressText.setId("historyProgress");
        progressBar.setPrefWidth(160);
        comparePrevious.setId("comparePrevious");
        compareGreen.setId("compareLastGreen");
        runs.setId("historyRuns");
        runs.setPlaceholder(new Label("No runs"));
        runs.getColumns().setAll(List.of(
                column("Started", r -> r.startedAt() == null ? "" : Formats.startedAt(r.startedAt()), 110),
                column("Duration", r -> r.ended() ? duration(r.durationSeconds()) : "running", 92),
                column("Status", r -> r.status().word(), 96), // "completed" whole
                column("Exit", r -> r.signal() != null ? "SIG" + r.signal() : r.exitCode() == null ? "" : r.exitCode().toString(), 50),
                column("Output", r -> Sizes.format(r.outputBytes()), 80)));
        VBox.setVgrow(runs, Priority.ALWAYS);
        comparePrevious.setOnAction(e -> compare(false));
        compareGreen.setOnAction(e -> compare(true));
        // The two buttons side by side, one under the other in a narrow pane: never cut ("Compare with previou...").
        comparePrevious.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        compareGreen.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        javafx.scene.layout.FlowPane buttons = new javafx.scene.layout.FlowPane(8, 8, comparePrevious, compareGreen);
        VBox box = new VBox(8, progressLine, summary, sparkline, buttons, runs);
        box.setPadding(new Insets(8));
        tab = new Tab("History", box);
        tab.setId("historyTab");

        ChangeListener<SessionSnapshot> snapshotChanged = (o, was, now) -> {
            showProgress(now);
            if (was != null && now != null && was.status() != now.status()) {
                reload(); // a run ended: it joins the history
            }
        };
        row.addListener((o, was, now) -> {
            if (was != null) {
                was.snapshotProperty().removeListener(snapshotChanged);
            }
            if (now != null) {
                now.snapshotProperty().addListener(snapshotChanged);
            }
            showProgress(now == null ? null : now.snapshotProperty().get());
            reload();
        });
        tab.selectedProperty().addListener((o, was, now) -> {
            if (now) {
                reload();
            }
        });
        showProgress(null);
        show(null);
    }

    Tab tab() {
        return tab;
    }

    /** As the sessions table's Elapsed column says it: "9.5 s", "42 s", "3m 07s", "1h 02m". */
    private static String duration(double seconds) {
        return Formats.elapsed(java.time.Duration.ofMillis(Math.round(seconds * 1000)));
    }

    private static TableColumn<Run, String> column(String name, java.util.function.Function<Run, String> text, double width) {
        TableColumn<Run, String> c = new TableColumn<>(name);
        c.setCellValueFactory(d -> new SimpleStringProperty(text.apply(d.getValue())));
        c.setPrefWidth(width);
        c.setMinWidth(Math.min(width, name.length() * 8 + 24)); // the title stays readable
        c.setSortable(false);
        return c;
    }

    private void showProgress(SessionSnapshot s) {
        String text = ProgressText.of(s);
        boolean visible = !text.isEmpty();
        progressLine.setVisible(visible);
        progressLine.setManaged(visible);
        // The History tab has the room the row lacks to say which predictor the estimate uses.
        progressText.setText(visible && s.progressBasis() != null ? text + " \u00b7 by " + s.progressBasis() : text);
        progressBar.setProgress(ProgressText.bar(s));
    }

    /** Gathers the selected session's history on a worker (only while the tab shows). */
    private void reload() {
        SessionRow r = row.get();
        int mine = ++generation;
        if (r == null) {
            show(null);
            return;
        }
        if (!tab.isSelected()) {
            return;
        }
        RunKey key = RunKey.of(r.spec());
        tasks.onFx(tasks.background(() -> RunHistory.of(key, engine.snapshots())), (h, error) -> {
            if (mine == generation && error == null) {
                show(h);
            }
        });
    }

    private void show(RunHistory h) {
        history = h;
        if (h == null) {
            runs.getItems().clear();
            summary.setText("");
            sparkline.show(List.of(), "", "");
            comparePrevious.setDisable(true);
            compareGreen.setDisable(true);
            return;
        }
        List<Run> newestFirst = new java.util.ArrayList<>(h.runs());
        java.util.Collections.reverse(newestFirst);
        runs.getItems().setAll(newestFirst);
        summary.setText(h.summary(HistoryTab::duration));
        List<Double> d = h.durations();
        sparkline.show(d, d.isEmpty() ? "" : "last " + duration(d.get(d.size() - 1)),
                d.isEmpty() ? "" : "max " + duration(d.stream().mapToDouble(x -> x).max().orElse(0)));
        String id = row.get() == null ? null : row.get().id();
        comparePrevious.setDisable(id == null || h.previous(id).isEmpty());
        compareGreen.setDisable(id == null || h.lastGreen(id).isEmpty());
    }

    /** Opens the diff of the selected run against the previous (or last green) run of its command. */
    private void compare(boolean lastGreen) {
        SessionRow r = row.get();
        if (r == null || history == null) {
            return;
        }
        Optional<Run> before = lastGreen ? history.lastGreen(r.id()) : history.previous(r.id());
        if (before.isEmpty()) {
            return;
        }
        String olderId = before.get().id();
        tasks.onFx(tasks.background(() -> new Path[] {output(engine.snapshot(olderId, false)), output(engine.snapshot(r.id(), false))}),
                (paths, error) -> {
                    if (error == null && paths[0] != null && paths[1] != null) {
                        new DiffWindow(tasks, paths[0], olderId, paths[1], r.id()).show();
                    } else {
                        summary.setText("Cannot compare: an output is no longer on disk");
                    }
                });
    }

    private static Path output(SessionSnapshot s) {
        if (s == null) {
            return null;
        }
        for (String candidate : new String[] {s.artifact(), s.captureFile()}) {
            if (candidate != null && java.nio.file.Files.isReadable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }
}
