package dev.runboard.ui.viewer;

import dev.runboard.artifact.ArtifactFile;
import dev.runboard.artifact.LineIndex;
import dev.runboard.artifact.PageReader;
import dev.runboard.artifact.TimeIndex;
import dev.runboard.artifact.ViewerLine;
import dev.runboard.session.OutputPreview;
import dev.runboard.ui.common.DesktopBridge;
import dev.runboard.ui.common.UiTasks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.concurrent.Task;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.ScrollEvent;
import javafx.stage.FileChooser;
import javafx.util.Duration;

/**
 * The read-only viewer of a file of any size. The list holds only the visible page of lines; a
 * worker thread reads pages by byte offset (so Top and End are instant at any size), a second
 * thread builds the sparse line index (numbers, go to line), a third searches (the search bar is
 * {@link MatchNavigator}). The FX thread only receives finished pages and coalesced progress.
 */
final class ArtifactViewController {
    private static final double ROW = 20;
    private static final double BAR_MAX = 1_000_000;
    private final Path file;
    private final DesktopBridge desktop;
    private final BooleanSupplier stillWritten;
    private final UiTasks tasks;
    private final AtomicLong generation = new AtomicLong();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> daemon(r, "runboard-viewer-pages"));
    private ArtifactFile artifact;
    private LineIndex index;
    private PageReader reader;
    private PageReader.Page page;
    private int rows = 30;
    private boolean updatingBar;
    private long scrollBase = -1;
    private int scrollAccum;
    private long pendingGoto = -1;
    private MatchNavigator search;
    /** The gutter's times (an immutable snapshot read on the worker), or null while the gutter is off. */
    private TimeIndex times;
    private volatile boolean timesWanted;
    private TimeIndex timesRead; // the worker's copy, read again while the file grows
    private final Timeline ticker = new Timeline(new KeyFrame(Duration.millis(250), e -> tick()));

    @FXML private Label viewerPath;
    @FXML private Label viewerInfo;
    @FXML private Label viewerNote;
    @FXML private ProgressBar viewerProgress;
    @FXML private TextField viewerFind;
    @FXML private ToggleButton viewerCase;
    @FXML private Label viewerMatches;
    @FXML private ProgressBar viewerSearchProgress;
    @FXML private Button viewerCancel;
    @FXML private TextField viewerGoto;
    @FXML private ToggleButton viewerTimes;
    @FXML private ToggleButton viewerFollow;
    @FXML private ListView<ViewerLine> viewerList;
    @FXML private ScrollBar viewerScroll;

    ArtifactViewController(Path file, DesktopBridge desktop, BooleanSupplier stillWritten, UiTasks tasks) {
        this.file = file;
        this.desktop = desktop;
        this.stillWritten = stillWritten;
        this.tasks = tasks;
    }

    @FXML
    private void initialize() {
        viewerPath.setText(file.toString());
        viewerNote.setText("Lines longer than " + OutputPreview.humanBytes(ArtifactFile.LINE_LIMIT) + " are cut (marked \u27F6)");
        search = new MatchNavigator(file,
                new MatchNavigator.Controls(viewerFind, viewerCase, viewerMatches, viewerSearchProgress, viewerCancel, viewerList),
                () -> reader != null, () -> page == null ? 0 : page.anchor(), this::revealMatch);
        viewerList.setCellFactory(l -> new ViewerLineCell(search::highlight, () -> times));
        viewerTimes.selectedProperty().addListener((o, was, on) -> {
            timesWanted = on;
            if (!on) {
                times = null;
                viewerList.refresh();
            } else if (page != null) {
                long anchor = page.anchor();
                request(r -> r.at(anchor, rows));
            }
        });
        viewerList.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        viewerList.addEventFilter(ScrollEvent.SCROLL, this::onWheel);
        viewerList.addEventFilter(KeyEvent.KEY_PRESSED, this::onKey);
        viewerList.heightProperty().addListener(o -> resize());
        viewerScroll.setMax(BAR_MAX);
        viewerScroll.valueProperty().addListener((o, was, now) -> {
            if (!updatingBar && reader != null) {
                follow(false);
                double f = now.doubleValue() / BAR_MAX;
                request(r -> r.fraction(f, rows));
            }
        });
        viewerGoto.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                onGoto();
            }
        });
        viewerFollow.selectedProperty().addListener((o, was, on) -> {
            if (on) {
                onEnd();
                ticker.play();
            }
        });
        ticker.setCycleCount(Timeline.INDEFINITE);
    }

    /** Opens the file: the first page at once, the index in the background. */
    void load(boolean follow) {
        try {
            artifact = new ArtifactFile(file);
        } catch (IOException e) {
            // Say what happened and what can be done, instead of a blank list under a spinning dot.
            viewerProgress.setVisible(false);
            boolean gone = e instanceof java.nio.file.NoSuchFileException || !java.nio.file.Files.exists(file);
            String what = gone
                    ? "The output file is gone: " + file + ". It was deleted or moved (Remove and delete artifact,"
                      + " the data dir's retention, or by hand); the detail pane still shows the start and end kept"
                      + " in the session's record."
                    : "Cannot read the output file " + file + ": " + e.getMessage();
            viewerInfo.setText(gone ? "The file is gone" : "Cannot read the file");
            showNotice(what);
            return;
        }
        index = new LineIndex(file, stillWritten);
        reader = new PageReader(artifact, index);
        daemon(index, "runboard-viewer-index").start();
        ticker.play();
        resize();
        if (follow) {
            viewerFollow.setSelected(true);
        } else {
            request(r -> r.top(rows));
        }
        tick();
    }

    private void resize() {
        // A horizontal scroll bar may take a row's height at the bottom; the page must never need a vertical one.
        int fit = Math.max(1, (int) Math.floor((viewerList.getHeight() - 18) / ROW));
        if (fit != rows && reader != null) {
            rows = fit;
            long anchor = page == null ? 0 : page.anchor();
            request(r -> r.at(anchor, rows));
        }
        rows = fit;
    }

    /** Runs a page read on the worker; only the newest request's page is shown. */
    private void request(Function<PageReader, PageReader.Page> read) {
        long gen = generation.incrementAndGet();
        worker.execute(() -> {
            if (gen != generation.get()) {
                return;
            }
            try {
                PageReader.Page p = read.apply(reader);
                TimeIndex t = timesWanted ? readTimes() : null;
                if (p != null) {
                    tasks.fx(() -> {
                        if (gen == generation.get()) {
                            times = viewerTimes.isSelected() ? t : null;
                            show(p);
                        }
                    });
                }
            } catch (RuntimeException e) {
                tasks.fx(() -> viewerInfo.setText("Cannot read the file: " + e.getMessage()));
            }
        });
    }

    /** On the worker: the file's time index, read once, or again on each page while the file grows. */
    private TimeIndex readTimes() {
        if (timesRead == null || stillWritten.getAsBoolean()) {
            try {
                timesRead = TimeIndex.read(file);
            } catch (IOException e) {
                timesRead = null;
            }
        }
        return timesRead;
    }

    private void show(PageReader.Page p) {
        int selected = viewerList.getSelectionModel().getSelectedIndex();
        page = p;
        scrollBase = -1;
        viewerList.getItems().setAll(p.lines());
        if (p.focusRow() >= 0) {
            viewerList.getSelectionModel().clearAndSelect(p.focusRow());
        } else if (selected >= 0 && selected < p.lines().size()) {
            viewerList.getSelectionModel().clearAndSelect(selected);
        }
        updatingBar = true;
        long size = Math.max(1, p.fileSize());
        long shownEnd = p.lines().isEmpty() ? p.anchor() : p.lines().get(p.lines().size() - 1).next();
        viewerScroll.setVisibleAmount(Math.max(BAR_MAX / 200, (shownEnd - p.anchor()) * BAR_MAX / size));
        viewerScroll.setValue(shownEnd >= p.fileSize() ? BAR_MAX : p.anchor() * BAR_MAX / size);
        updatingBar = false;
        describe();
    }

    private void tick() {
        if (index == null) {
            return;
        }
        describe();
        if (viewerFollow.isSelected()) {
            request(r -> r.end(rows));
        } else if (page != null && !page.lines().isEmpty() && page.number() < 0 && index.covers(page.anchor())) {
            long anchor = page.anchor(); // the index has reached the shown lines: show their numbers
            request(r -> r.at(anchor, rows));
        }
        if (pendingGoto >= 0 && (index.lines() > pendingGoto || index.done())) {
            long line = pendingGoto;
            pendingGoto = -1;
            gotoLine(line);
        }
        if (index.done() && !viewerFollow.isSelected() && pendingGoto < 0
                && (page == null || page.number() >= 0 || page.lines().isEmpty())) {
            ticker.stop();
        }
    }

    private void describe() {
        boolean done = index.done();
        viewerProgress.setVisible(!done);
        viewerProgress.setProgress(index.progress());
        String size = OutputPreview.humanBytes(index.fileSize());
        viewerNote.setText(times != null && times.isEmpty()
                ? "No line times: this output was recorded before runboard kept a time index"
                : "Lines longer than " + OutputPreview.humanBytes(ArtifactFile.LINE_LIMIT) + " are cut (marked \u27F6)");
        if (index.failure() != null) {
            viewerInfo.setText("Index failed: " + index.failure().getMessage());
        } else if (done && index.fileSize() == 0) {
            viewerInfo.setText("Empty file");
            showNotice("The output is empty: the command wrote nothing to stdout or stderr. A running command's output"
                    + " appears here as it is written.");
        } else if (done) {
            viewerInfo.setText(String.format(Locale.ROOT, "%,d lines \u00B7 %s", reader.totalLines(), size));
        } else {
            viewerInfo.setText(String.format(Locale.ROOT, "Indexing %d%% \u00B7 %,d lines so far \u00B7 %s",
                    (int) (index.progress() * 100), index.lines(), size));
        }
    }

    /** A message in place of the lines, with a way on: the file's folder, or closing the viewer (Esc). */
    private void showNotice(String text) {
        if (viewerList.getPlaceholder() != null && "viewerNoticeBox".equals(viewerList.getPlaceholder().getId())) {
            return; // once: describe() runs on every tick
        }
        javafx.scene.control.Label label = new javafx.scene.control.Label(text);
        label.setId("viewerNotice");
        label.setWrapText(true);
        label.setMaxWidth(640);
        javafx.scene.control.Button folder = new javafx.scene.control.Button("Open the folder");
        folder.setId("viewerOpenFolder");
        Path parent = file.toAbsolutePath().getParent();
        folder.setDisable(parent == null || !java.nio.file.Files.isDirectory(parent));
        folder.setOnAction(e -> desktop.open(parent));
        javafx.scene.control.Label close = new javafx.scene.control.Label("Esc closes the viewer.");
        close.getStyleClass().add("placeholder-label");
        javafx.scene.layout.VBox box = new javafx.scene.layout.VBox(10, label, folder, close);
        box.setAlignment(javafx.geometry.Pos.CENTER);
        box.setId("viewerNoticeBox");
        viewerList.setPlaceholder(box);
    }

    private void onWheel(ScrollEvent e) {
        if (Math.abs(e.getDeltaY()) <= Math.abs(e.getDeltaX())) {
            return; // sideways: the list scrolls long lines itself
        }
        int lines = (int) Math.max(1, Math.round(Math.abs(e.getDeltaY()) / ROW));
        scroll(e.getDeltaY() > 0 ? -lines : lines);
        e.consume();
    }

    private void onKey(KeyEvent e) {
        int sel = viewerList.getSelectionModel().getSelectedIndex();
        int last = viewerList.getItems().size() - 1;
        KeyCode k = e.getCode();
        if (k == KeyCode.PAGE_DOWN) {
            scroll(Math.max(1, rows - 1));
        } else if (k == KeyCode.PAGE_UP) {
            scroll(-Math.max(1, rows - 1));
        } else if (k == KeyCode.DOWN && sel == last) {
            scroll(1);
        } else if (k == KeyCode.UP && sel == 0) {
            scroll(-1);
        } else if (k == KeyCode.HOME && e.isShortcutDown()) {
            onTop();
        } else if (k == KeyCode.END && e.isShortcutDown()) {
            onEnd();
        } else if (k == KeyCode.C && e.isShortcutDown()) {
            onCopy();
        } else {
            return;
        }
        e.consume();
    }

    /** Moves by lines; quick repeated moves add up against the page shown when they began. */
    void scroll(int delta) {
        if (page == null) {
            return;
        }
        if (delta < 0) {
            follow(false);
        }
        if (scrollBase < 0) {
            scrollBase = page.anchor();
            scrollAccum = 0;
        }
        scrollAccum += delta;
        long base = scrollBase;
        int total = scrollAccum;
        request(r -> r.scroll(base, total, rows));
    }

    private void follow(boolean on) {
        viewerFollow.setSelected(on);
    }

    @FXML
    void onTop() {
        follow(false);
        request(r -> r.top(rows));
    }

    @FXML
    void onEnd() {
        request(r -> r.end(rows));
    }

    @FXML
    void onGoto() {
        String t = viewerGoto.getText().strip().replace(",", "");
        long line;
        try {
            line = Long.parseLong(t);
        } catch (NumberFormatException e) {
            viewerInfo.setText("Go to: type a line number");
            return;
        }
        follow(false);
        gotoLine(Math.max(0, line - 1));
    }

    private void gotoLine(long line) {
        if (index.lines() > line) {
            request(r -> r.line(line, rows));
        } else if (index.done()) {
            long total = reader.totalLines();
            long last = Math.max(0, total - 1);
            request(r -> r.line(Math.min(line, last), rows));
        } else {
            pendingGoto = line;
            ticker.play();
            viewerInfo.setText(String.format(Locale.ROOT, "Line %,d is not indexed yet: shown when the index gets there", line + 1));
        }
    }

    void find(String text) {
        search.find(text);
    }

    /** Shows the page around byte {@code offset}, that line selected. */
    void revealAt(long offset) {
        revealMatch(offset);
    }

    /** Leaves follow mode and shows the page around byte {@code offset}, that line focused (a search match). */
    private void revealMatch(long offset) {
        follow(false);
        request(r -> r.around(offset, rows));
    }

    @FXML
    void onNext() {
        search.findOrStep(false);
    }

    @FXML
    void onPrevious() {
        search.findOrStep(true);
    }

    @FXML
    void onCancelSearch() {
        search.cancel();
    }

    @FXML
    void onCopy() {
        List<ViewerLine> chosen = viewerList.getSelectionModel().getSelectedItems().isEmpty()
                ? viewerList.getItems() : viewerList.getSelectionModel().getSelectedItems();
        desktop.copy(chosen.stream().map(ViewerLine::text).collect(Collectors.joining("\n", "", "\n")));
    }

    @FXML
    void onSaveCopy() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Save a copy of " + file.getFileName());
        chooser.setInitialFileName(file.getFileName().toString());
        java.io.File target = chooser.showSaveDialog(viewerList.getScene().getWindow());
        if (target == null) {
            return;
        }
        Task<Path> copy = new Task<>() {
            @Override
            protected Path call() throws IOException {
                return Files.copy(file, target.toPath(), StandardCopyOption.REPLACE_EXISTING);
            }
        };
        copy.setOnSucceeded(e -> viewerInfo.setText("Saved a copy as " + target));
        copy.setOnFailed(e -> viewerInfo.setText("Could not save: " + copy.getException().getMessage()));
        viewerInfo.setText("Saving a copy\u2026");
        daemon(copy, "runboard-viewer-save").start();
    }

    @FXML
    void onOpenExternal() {
        desktop.open(file);
    }

    @FXML
    void onReveal() {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            desktop.open(parent);
        }
    }

    void close() {
        ticker.stop();
        onCancelSearch();
        if (index != null) {
            index.stop();
        }
        generation.incrementAndGet();
        worker.execute(() -> {
            if (artifact != null) {
                artifact.close();
            }
        });
        worker.shutdown();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
