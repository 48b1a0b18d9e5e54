package dev.runboard.ui.viewer;

import dev.runboard.artifact.ArtifactFile;
import dev.runboard.artifact.ByteSource;
import dev.runboard.artifact.MirroredBytes;
import dev.runboard.artifact.LineIndex;
import dev.runboard.artifact.PageReader;
import dev.runboard.artifact.TimeIndex;
import dev.runboard.artifact.ViewerLine;
import dev.runboard.session.Sizes;
import dev.runboard.ui.common.DesktopBridge;
import dev.runboard.ui.common.UiTasks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
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
import javafx.stage.FileChooser;
import javafx.util.Duration;

/**
 * The read-only viewer of a file of any size. The list holds only the visible page of lines; a
 * worker thread reads pages by byte offset (so Top and End are instant at any size), a second
 * thread builds the sparse line index (numbers, go to line), a third searches (the search bar is
 * {@link MatchNavigator}). The FX thread only receives finished pages and coalesced progress.
 * A remote output ({@code remote} set) is paged from its host by byte ranges past what its local
 * mirror holds; line numbers, search and the gutter reach as far as the mirror.
 */
final class ArtifactViewController {
    private static final double ROW = 20;
    private final Path file;
    private final DesktopBridge desktop;
    private final BooleanSupplier stillWritten;
    private final UiTasks tasks;
    /** The output on its host, or null for a local file. */
    private final ByteSource remote;
    private final PageWorker pages;
    private volatile ArtifactFile artifact;
    private LineIndex index;
    private PageReader.Page page;
    private int rows = 30;
    private PageScrollBar bar;
    private long scrollBase = -1;
    private int scrollAccum;
    private long pendingGoto = -1;
    private MatchNavigator search;
    /** The gutter's times (an immutable snapshot read on the worker), or null while the gutter is off. */
    private TimeIndex times;
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
    @FXML private Label viewerDownloadText;
    @FXML private ProgressBar viewerDownload;
    @FXML private Button viewerDownloadCancel;
    private ViewerStatus status;
    private DownloadBar downloads;

    ArtifactViewController(Path file, DesktopBridge desktop, BooleanSupplier stillWritten, UiTasks tasks, ByteSource remote) {
        this.file = file;
        this.desktop = desktop;
        this.stillWritten = stillWritten;
        this.tasks = tasks;
        this.remote = remote;
        this.pages = new PageWorker(file, stillWritten, tasks, (p, t) -> {
            times = viewerTimes.isSelected() ? t : null;
            show(p);
        }, viewerInfoText -> viewerInfo.setText(viewerInfoText));
    }

    @FXML
    private void initialize() {
        viewerPath.setText(file.toString());
        status = new ViewerStatus(viewerInfo, viewerProgress, viewerNote);
        downloads = new DownloadBar(viewerDownloadText, viewerDownload, viewerDownloadCancel);
        viewerNote.setText("Lines longer than " + Sizes.format(ArtifactFile.LINE_LIMIT) + " are cut (marked \u27F6)");
        search = new MatchNavigator(file,
                new MatchNavigator.Controls(viewerFind, viewerCase, viewerMatches, viewerSearchProgress, viewerCancel, viewerList),
                () -> pages.reader() != null, () -> page == null ? 0 : page.anchor(), this::revealMatch);
        viewerList.setCellFactory(l -> new ViewerLineCell(search::highlight, () -> times));
        viewerTimes.selectedProperty().addListener((o, was, on) -> {
            pages.timesWanted(on);
            if (!on) {
                times = null;
                viewerList.refresh();
            } else if (page != null) {
                long anchor = page.anchor();
                request(r -> r.at(anchor, rows));
            }
        });
        viewerList.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        new ViewerInput(viewerList, ROW, this::scroll, this::onTop, this::onEnd, this::onCopy, () -> rows);
        viewerList.heightProperty().addListener(o -> resize());
        bar = new PageScrollBar(viewerScroll, f -> {
            if (pages.reader() != null) {
                follow(false);
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
        if (remote != null) {
            loadRemote(follow);
            return;
        }
        try {
            artifact = new ArtifactFile(file);
        } catch (IOException e) {
            // Say what happened and what can be done, instead of a blank list under a spinning dot.
            viewerProgress.setVisible(false);
            boolean gone = e instanceof java.nio.file.NoSuchFileException || !java.nio.file.Files.exists(file);
            viewerInfo.setText(gone ? "The file is gone" : "Cannot read the file");
            showNotice(ViewerNotice.openFailed(file, e, gone));
            return;
        }
        index = new LineIndex(file, stillWritten);
        pages.reader(new PageReader(artifact, index));
        start(follow);
    }

    /**
     * A remote output: opened on the worker (asking its size is a round trip to the host), paged from
     * the host past its mirror's end. The index numbers the mirrored lines and waits for more.
     */
    private void loadRemote(boolean follow) {
        index = new LineIndex(file, () -> true);
        pages.execute(() -> {
            try {
                ArtifactFile opened = new ArtifactFile(file, new MirroredBytes(file, remote));
                artifact = opened;
                pages.reader(new PageReader(opened, index));
            } catch (IOException e) {
                tasks.fx(() -> {
                    viewerInfo.setText("Cannot read the remote output");
                    ViewerNotice.show(viewerList, "Cannot read the output on its host: " + e.getMessage(), file, desktop);
                });
            }
        });
        start(follow);
    }

    private void start(boolean follow) {
        Thread indexer = new Thread(index, "runboard-viewer-index");
        indexer.setDaemon(true);
        indexer.start();
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
        if (fit != rows && pages.reader() != null) {
            rows = fit;
            long anchor = page == null ? 0 : page.anchor();
            request(r -> r.at(anchor, rows));
        }
        rows = fit;
    }

    private void request(Function<PageReader, PageReader.Page> read) {
        pages.request(read);
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
        bar.show(p);
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
        String notice = status.describe(index, pages.reader(), page, times, remote != null);
        if (notice != null) {
            showNotice(notice);
        }
    }

    private void showNotice(String text) {
        ViewerNotice.show(viewerList, text, file, desktop);
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
            long total = pages.reader().totalLines();
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

    /** Download: the whole output (from its host when it is remote) into a file the user picks. */
    @FXML
    void onSaveCopy() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Download " + file.getFileName());
        chooser.setInitialFileName(file.getFileName().toString());
        java.io.File target = chooser.showSaveDialog(viewerList.getScene().getWindow());
        if (target != null) {
            download(target.toPath());
        }
    }

    /** Saves the whole output as {@code target}, with progress and Cancel in the status bar. */
    Download download(Path target) {
        return downloads.start(() -> remote == null ? ByteSource.of(file) : new MirroredBytes(file, remote), target);
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
        pages.close(() -> {
            if (artifact != null) {
                artifact.close();
            }
        });
    }
}
