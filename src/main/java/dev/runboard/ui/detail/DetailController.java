package dev.runboard.ui.detail;

import dev.runboard.artifact.TimeIndex;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.Signal;
import dev.runboard.ui.ansi.StyledLine;
import dev.runboard.ui.common.Formats;
import dev.runboard.ui.common.Icons;
import dev.runboard.ui.common.LayoutRoot;
import dev.runboard.ui.common.StatusLook;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.insight.InsightPane;
import dev.runboard.ui.insight.SessionControl;
import dev.runboard.ui.main.MainViewModel;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.ui.viewer.ArtifactViewer;
import java.nio.file.Path;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ObjectProperty;
import javafx.fxml.FXML;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuButton;
import javafx.scene.control.SplitMenuButton;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/** Binds the detail pane (output, notices, facts, actions) to {@link DetailViewModel} and {@link MainViewModel}. */
public final class DetailController {
    private final DetailViewModel model;
    private final MainViewModel main;
    private Runnable rerun = () -> { };
    private Runnable editRerun = () -> { };
    private OutputTail tail;

    @FXML private Label emptyLabel;
    @FXML private BorderPane detailContent;
    @FXML private Label detailStatus;
    @FXML private Label detailCommand;
    @FXML private SplitMenuButton killButton;
    @FXML private Button removeButton;
    @FXML private Button rerunButton;
    @FXML private Button editRerunButton;
    @FXML private Button copyCommandButton;
    @FXML private Button openCwdButton;
    @FXML private Button copyOutputButton;
    @FXML private Button previousMatch;
    @FXML private Button nextMatch;
    @FXML private TextField findField;
    @FXML private Label matchLabel;
    @FXML private ToggleButton followToggle;
    @FXML private ToggleButton wrapToggle;
    @FXML private ToggleButton timesToggle;
    @FXML private ToggleButton regexToggle;
    @FXML private HBox truncatedBar;
    @FXML private Label truncatedLabel;
    @FXML private Hyperlink openArtifactLink;
    @FXML private Hyperlink openArtifactExternal;
    @FXML private VBox artifactErrorBar;
    @FXML private Label artifactErrorLabel;
    @FXML private Hyperlink openCaptureLink;
    @FXML private ListView<StyledLine> outputList;
    @FXML private Button resumeFollowButton;
    @FXML private Label factHost;
    @FXML private Label factPidName;
    @FXML private Label factPid;
    @FXML private Label factShell;
    @FXML private Label factCwd;
    @FXML private Label factEnv;
    @FXML private Label factTimeout;
    @FXML private Label factGrace;
    @FXML private Label factPriority;
    @FXML private Label factStarted;
    @FXML private Label factEnded;
    @FXML private Label factExit;
    @FXML private Label factReason;
    @FXML private Label factKill;
    @FXML private Label factSlurmName;
    @FXML private Label factSlurm;
    @FXML private Button pauseToggle;
    @FXML private MenuButton signalButton;
    @FXML private TabPane sideTabs;
    @FXML private javafx.scene.control.SplitPane detailSplit;
    @FXML private VBox stdinSlot;

    private final ArtifactViewer viewer;
    private final UiTasks tasks;
    private boolean timesLoading;
    private final SessionControl control;

    public DetailController(DetailViewModel model, MainViewModel main, ArtifactViewer viewer, SessionControl control, UiTasks tasks) {
        this.tasks = tasks;
        this.model = model;
        // A finished row of the history holds only its preview's summary: the bytes come back from disk when it is shown.
        model.readPreviewsWith((summary, then) -> tasks.onFx(tasks.background(summary::held), (preview, error) ->
                then.accept(error == null ? preview : DetailViewModel.PreviewReader.unreadable(error))));
        this.main = main;
        this.viewer = viewer;
        this.control = control;
    }

    @FXML
    private void initialize() {
        tail = new OutputTail(outputList);
        LayoutRoot.isolate(outputList); // it changes on every poll
        InsightPane insight = new InsightPane(model.rowProperty(), control);
        Icons.iconOnly(rerunButton, "mdi2r-restart", "Ctrl+R");
        Icons.iconOnly(editRerunButton, "mdi2p-pencil", "Ctrl+Shift+R");
        Icons.iconOnly(copyCommandButton, "mdi2c-content-copy", null);
        Icons.iconOnly(openCwdButton, "mdi2f-folder-open-outline", null);
        Icons.iconOnly(removeButton, "mdi2d-delete-outline", "Delete");
        Icons.iconOnly(previousMatch, "mdi2c-chevron-up", "Shift+Enter");
        Icons.iconOnly(nextMatch, "mdi2c-chevron-down", "Enter");
        Icons.iconOnly(followToggle, "mdi2c-chevron-double-down", "End");
        Icons.iconOnly(wrapToggle, "mdi2f-format-text-wrapping-wrap", null);
        Icons.iconOnly(timesToggle, "mdi2c-clock-outline", null)
                .setTooltip(new javafx.scene.control.Tooltip("Times: when each line was written (at most 100 ms late)"));
        Icons.iconOnly(copyOutputButton, "mdi2c-content-copy", "Ctrl+C");
        signalButton.setGraphic(Icons.icon("mdi2l-lightning-bolt-outline"));
        signalButton.setContentDisplay(javafx.scene.control.ContentDisplay.GRAPHIC_ONLY);
        signalButton.setTooltip(new javafx.scene.control.Tooltip("Send a signal to the whole process group"));
        // The command keeps its head and tail when short of room (middle ellipsis); the tooltip has it all.
        javafx.scene.control.Tooltip commandTip = new javafx.scene.control.Tooltip();
        commandTip.setWrapText(true);
        commandTip.setMaxWidth(720);
        commandTip.textProperty().bind(detailCommand.textProperty());
        detailCommand.setTooltip(commandTip);
        insight.installTabs(sideTabs);
        insight.installSignalMenu(signalButton);
        insight.installPauseToggle(pauseToggle);
        Icons.iconOnly(pauseToggle, pauseToggle.textProperty(), word -> word.equals("Resume") ? "mdi2p-play" : "mdi2p-pause");
        stdinSlot.getChildren().add(insight.stdinBar());
        BooleanBinding hasRow = model.rowProperty().isNotNull();
        detailContent.visibleProperty().bind(hasRow);
        emptyLabel.visibleProperty().bind(hasRow.not());

        followToggle.selectedProperty().bindBidirectional(tail.followProperty());
        wrapToggle.selectedProperty().bindBidirectional(tail.wrapProperty());
        findField.textProperty().bindBidirectional(tail.queryProperty());
        regexToggle.selectedProperty().bindBidirectional(tail.regexProperty());
        regexToggle.setTooltip(new javafx.scene.control.Tooltip("Find by regex (as the viewer's search does); off: plain text"));
        matchLabel.textProperty().bind(tail.matchInfoProperty());
        findField.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                if (e.isShiftDown()) {
                    tail.previous();
                } else {
                    tail.next();
                }
            } else if (e.getCode() == KeyCode.ESCAPE) {
                findField.clear();
                outputList.requestFocus();
            }
        });
        outputList.setOnKeyPressed(e -> {
            if (new KeyCodeCombination(KeyCode.C, KeyCombination.SHORTCUT_DOWN).match(e)) {
                onCopyOutput();
                e.consume();
            }
        });
        show(resumeFollowButton, tail.followProperty().not().and(hasRow));

        show(truncatedBar, model.truncatedProperty());
        truncatedLabel.textProperty().bind(model.truncatedNoticeProperty());
        openArtifactLink.visibleProperty().bind(model.artifactProperty().isNotNull());
        openArtifactLink.managedProperty().bind(openArtifactLink.visibleProperty());
        openArtifactExternal.visibleProperty().bind(model.artifactProperty().isNotNull());
        openArtifactExternal.managedProperty().bind(openArtifactExternal.visibleProperty());
        show(artifactErrorBar, model.artifactErrorProperty().isNotNull());
        artifactErrorLabel.textProperty().bind(model.artifactErrorProperty());

        killButton.disableProperty().bind(main.selectedKillable().not());
        removeButton.disableProperty().bind(main.selectedRunning());

        model.rowProperty().addListener((o, was, now) -> tail.reset());
        tail.highlightsProperty().bind(model.highlightsProperty());
        model.linesProperty().addListener((o, was, now) -> tail.show(now));
        model.snapshotProperty().addListener((o, was, now) -> showHeader(now));
        model.snapshotProperty().addListener((o, was, now) -> refreshTimes(was == null || now == null || !was.sessionId().equals(now.sessionId())));
        timesToggle.selectedProperty().addListener((o, was, on) -> refreshTimes(true));
        model.factsProperty().addListener((o, was, now) -> showFacts(now));
        factEnv.setOnMouseClicked(e -> model.revealEnv()); // secrets show as a mask until clicked (issue #45)
    }

    /**
     * Reads the shown session's time index off the FX thread while the Times toggle is on: again
     * as a running session's output grows, one read at a time (a read that finishes behind the
     * snapshot starts the next).
     */
    private void refreshTimes(boolean otherSession) {
        SessionSnapshot s = model.snapshotProperty().get();
        if (otherSession || s == null || !timesToggle.isSelected()) {
            tail.timesProperty().set(null);
        }
        if (s == null || s.rawOutput() == null || !timesToggle.isSelected() || timesLoading) {
            return;
        }
        timesLoading = true;
        Path file = Path.of(s.rawOutput());
        tasks.onFx(tasks.background(() -> LineTimes.of(s.preview().held(), TimeIndex.read(file))), (times, error) -> {
            timesLoading = false;
            SessionSnapshot now = model.snapshotProperty().get();
            if (now == null || !timesToggle.isSelected() || !now.sessionId().equals(s.sessionId())) {
                return;
            }
            tail.timesProperty().set(error == null ? times : null);
            if (now != s) {
                refreshTimes(false);
            }
        });
    }

    private static void show(Node node, javafx.beans.value.ObservableBooleanValue when) {
        node.visibleProperty().bind(when);
        node.managedProperty().bind(when);
    }

    private void showHeader(SessionSnapshot s) {
        if (s == null) {
            return;
        }
        detailStatus.setText(StatusLook.glyph(s.status()) + "  " + s.status().word());
        StatusLook.apply(detailStatus, s.status());
        detailCommand.setText(Formats.oneLine(s.command()));
    }

    private void showFacts(SessionFacts f) {
        if (f == null) {
            return;
        }
        factHost.setText(f.host());
        factPidName.setText(f.pidName());
        factPid.setText(f.pid());
        factShell.setText(f.shell());
        factCwd.setText(f.cwd());
        factEnv.setText(f.env());
        boolean masked = f.env().contains(dev.runboard.session.SecretEnv.MASK);
        factEnv.setTooltip(masked ? new javafx.scene.control.Tooltip("Click to show the secret values") : null);
        factEnv.setCursor(masked ? javafx.scene.Cursor.HAND : null);
        factTimeout.setText(f.timeout());
        factGrace.setText(f.grace());
        factPriority.setText(f.priority());
        factStarted.setText(f.started());
        factEnded.setText(f.ended());
        factExit.setText(f.exit());
        factReason.setText(f.reason());
        factKill.setText(f.killReport());
        boolean slurm = f.slurm() != null; // only a Slurm session has the row
        factSlurm.setText(slurm ? f.slurm() : "");
        for (Label l : java.util.List.of(factSlurmName, factSlurm)) {
            l.setVisible(slurm);
            l.setManaged(slurm);
        }
    }

    /** Rerun and edit-and-rerun need the main window's dialog; it hands them in. */
    public void setActions(Runnable rerun, Runnable editRerun) {
        this.rerun = rerun;
        this.editRerun = editRerun;
    }

    public ObjectProperty<SessionRow> rowProperty() {
        return model.rowProperty();
    }

    public ListView<StyledLine> outputList() {
        return outputList;
    }

    public TabPane sideTabs() {
        return sideTabs;
    }

    /** Opens the shown session's output file in the viewer: the artifact, else the kept capture. */
    public void openOutput() {
        if (model.artifactProperty().get() != null) {
            onOpenArtifact();
        } else {
            SessionSnapshot s = model.snapshotProperty().get();
            if (s != null && s.captureFile() != null) {
                onOpenCapture();
            } else if (s != null) {
                main.say("No output file for " + Formats.oneLine(s.command()) + " yet");
            }
        }
    }

    public javafx.scene.control.SplitPane split() {
        return detailSplit;
    }

    public void focusFind() {
        findField.requestFocus();
        findField.selectAll();
    }

    @FXML
    void onKill() {
        main.kill(Signal.TERM);
    }

    @FXML
    void onKillInt() {
        main.kill(Signal.INT);
    }

    @FXML
    void onKillTerm() {
        main.kill(Signal.TERM);
    }

    @FXML
    void onKillHup() {
        main.kill(Signal.HUP);
    }

    @FXML
    void onKillNow() {
        main.kill(Signal.KILL);
    }

    @FXML
    void onRerun() {
        rerun.run();
    }

    @FXML
    void onEditRerun() {
        editRerun.run();
    }

    @FXML
    void onCopyCommand() {
        main.copyCommand();
    }

    @FXML
    void onOpenCwd() {
        main.openCwd();
    }

    @FXML
    void onRemove() {
        main.remove();
    }

    @FXML
    void onCopyOutput() {
        main.copy(tail.textToCopy());
        main.say("Copied the output");
    }

    @FXML
    void onPreviousMatch() {
        tail.previous();
    }

    @FXML
    void onNextMatch() {
        tail.next();
    }

    @FXML
    void onResumeFollow() {
        tail.followProperty().set(true);
    }

    @FXML
    void onOpenArtifact() {
        String artifact = model.artifactProperty().get();
        if (artifact != null) {
            viewer.open(outputList.getScene().getWindow(), Path.of(artifact), () -> false, null, model.highlightsProperty().get());
        }
    }

    @FXML
    void onOpenArtifactExternal() {
        String artifact = model.artifactProperty().get();
        if (artifact != null) {
            main.open(Path.of(artifact));
        }
    }

    @FXML
    void onOpenCapture() {
        SessionSnapshot s = model.snapshotProperty().get();
        if (s != null && s.captureFile() != null) {
            viewer.openCapture(outputList.getScene().getWindow(), s.host(), s.sessionId(), !s.status().isTerminal(),
                    Path.of(s.captureFile()), model.highlightsProperty().get());
        }
    }
}
