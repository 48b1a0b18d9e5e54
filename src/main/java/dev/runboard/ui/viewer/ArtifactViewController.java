package dev.runboard.ui.viewer;

import dev.runboard.ui.DesktopBridge;
import java.nio.file.Path;
import java.util.Locale;
import javafx.collections.FXCollections;
import javafx.concurrent.Task;
import javafx.fxml.FXML;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;

/**
 * The read-only viewer: indexes the file off the FX thread, then shows it as a virtual list of
 * lines; find searches forward from the selection, also off the FX thread.
 */
final class ArtifactViewController {
    private final Path file;
    private final DesktopBridge desktop;
    private FileLines lines;
    private Task<?> running;

    @FXML private Label viewerPath;
    @FXML private Label viewerInfo;
    @FXML private ProgressBar viewerProgress;
    @FXML private TextField viewerFind;
    @FXML private ListView<String> viewerList;

    ArtifactViewController(Path file, DesktopBridge desktop) {
        this.file = file;
        this.desktop = desktop;
    }

    @FXML
    private void initialize() {
        viewerPath.setText(file.toString());
        viewerFind.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                onFind();
            }
        });
        viewerFind.disableProperty().bind(viewerList.itemsProperty().isNull());
        viewerList.setCellFactory(l -> new NumberedLineCell());
    }

    /** A line with its number in a muted gutter. */
    private static final class NumberedLineCell extends javafx.scene.control.ListCell<String> {
        private final Label number = new Label();

        NumberedLineCell() {
            number.getStyleClass().add("line-number");
        }

        @Override
        protected void updateItem(String line, boolean empty) {
            super.updateItem(line, empty);
            if (empty || line == null) {
                setText(null);
                setGraphic(null);
            } else {
                number.setText(String.valueOf(getIndex() + 1));
                setGraphic(number);
                setText(line);
            }
        }
    }

    void load() {
        viewerInfo.setText("Reading\u2026");
        Task<FileLines> index = new Task<>() {
            @Override
            protected FileLines call() throws Exception {
                return FileLines.index(file, p -> updateProgress(p, 1));
            }
        };
        viewerProgress.progressProperty().bind(index.progressProperty());
        viewerProgress.visibleProperty().bind(index.runningProperty());
        index.setOnSucceeded(e -> {
            lines = index.getValue();
            viewerList.setItems(FXCollections.observableList(lines));
            viewerInfo.setText(ArtifactViewer.describe(lines));
        });
        index.setOnFailed(e -> viewerInfo.setText("Cannot read the file: " + index.getException().getMessage()));
        start(index);
    }

    @FXML
    void onFind() {
        String query = viewerFind.getText();
        if (lines == null || query == null || query.isEmpty()) {
            return;
        }
        int from = viewerList.getSelectionModel().getSelectedIndex() + 1;
        FileLines reader;
        try {
            reader = lines.copy();
        } catch (java.io.IOException e) {
            viewerInfo.setText("Cannot search: " + e.getMessage());
            return;
        }
        String needle = query.toLowerCase(Locale.ROOT);
        Task<Integer> search = new Task<>() {
            @Override
            protected Integer call() {
                try (reader) {
                    int n = reader.size();
                    for (int k = 0; k < n; k++) {
                        int i = (from + k) % n; // wraps around to the top
                        if (reader.get(i).toLowerCase(Locale.ROOT).contains(needle)) {
                            return i;
                        }
                        if (k % 4096 == 0) {
                            updateProgress(k, n);
                            if (isCancelled()) {
                                return -1;
                            }
                        }
                    }
                    return -1;
                }
            }
        };
        viewerInfo.setText("Searching\u2026");
        search.setOnSucceeded(e -> {
            int found = search.getValue();
            if (found < 0) {
                viewerInfo.setText("\u201C" + query + "\u201D not found \u2014 " + ArtifactViewer.describe(lines));
            } else {
                viewerList.getSelectionModel().clearAndSelect(found);
                viewerList.scrollTo(Math.max(0, found - 5));
                viewerInfo.setText("Line " + (found + 1) + " \u2014 " + ArtifactViewer.describe(lines));
            }
        });
        start(search);
    }

    @FXML
    void onTop() {
        viewerList.scrollTo(0);
    }

    @FXML
    void onEnd() {
        if (lines != null && lines.size() > 0) {
            viewerList.scrollTo(lines.size() - 1);
        }
    }

    @FXML
    void onOpenExternal() {
        desktop.open(file);
    }

    private void start(Task<?> task) {
        if (running != null) {
            running.cancel();
        }
        running = task;
        Thread t = new Thread(task, "runboard-viewer");
        t.setDaemon(true);
        t.start();
    }

    void close() {
        if (running != null) {
            running.cancel();
        }
        if (lines != null) {
            lines.close();
        }
    }
}
