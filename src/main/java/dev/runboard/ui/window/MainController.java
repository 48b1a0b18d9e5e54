package dev.runboard.ui.window;

import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.ui.common.Formats;
import dev.runboard.ui.common.Icons;
import dev.runboard.ui.common.LateView;
import dev.runboard.ui.common.LayoutRoot;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.detail.DetailController;
import dev.runboard.ui.insight.InsightFormats;
import dev.runboard.ui.launch.NewSessionDialogs;
import dev.runboard.ui.main.MainViewModel;
import dev.runboard.ui.main.SelectionActions;
import dev.runboard.ui.sessions.LiveColumn;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.ui.sessions.StatusFilter;
import dev.runboard.ui.workspace.WorkspaceController;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import javafx.collections.ListChangeListener;
import javafx.scene.control.Button;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderPane;

/** Binds the main window's controls to {@link MainViewModel}; no logic of its own beyond wiring. */
public final class MainController {
    private final MainViewModel model;
    private final SelectionActions selection;
    private final java.util.concurrent.atomic.AtomicBoolean syncPending = new java.util.concurrent.atomic.AtomicBoolean();
    javafx.scene.control.Menu signalMenu;
    private final NewSessionDialogs dialogs;
    private final Theme theme;
    private final UiTasks tasks;
    private Runnable searchAllRuns = () -> { };

    // The controls: MainView (this package) builds them into these fields, signalMenu, sideSplit and mainSplit too.
    BorderPane root;
    TableView<SessionRow> sessionTable;
    TableColumn<SessionRow, SessionStatus> statusColumn;
    TableColumn<SessionRow, String> commandColumn;
    TableColumn<SessionRow, String> cwdColumn;
    TableColumn<SessionRow, SessionRow.Remote> hostColumn;
    TableColumn<SessionRow, Instant> startedColumn;
    TableColumn<SessionRow, Duration> elapsedColumn;
    TableColumn<SessionRow, String> exitColumn;
    TableColumn<SessionRow, Long> outputColumn;
    TableColumn<SessionRow, String> lastLineColumn;
    TableColumn<SessionRow, String> cpuColumn;
    TableColumn<SessionRow, Long> rssColumn;
    TextField filterField;
    ChoiceBox<StatusFilter> statusChoice;
    Label countsLabel;
    Label selectionLabel;
    Label diskLabel;
    Label messageLabel;
    Button toolbarRerun;
    Button toolbarKill;
    Button toolbarRemove;
    MenuItem rerunMenuItem;
    MenuItem editRerunMenuItem;
    MenuItem killMenuItem;
    MenuItem removeMenuItem;
    MenuItem copyCommandMenuItem;
    MenuItem openCwdMenuItem;
    CheckMenuItem darkModeItem;
    javafx.scene.layout.StackPane detailStandIn;
    MenuBar menuBar;
    javafx.scene.control.ToolBar toolBar;
    private final LateView<DetailController> detail;
    private final WorkspaceController workspaceController;
    private final LateView<WorkspaceController> workspace;
    javafx.scene.control.SplitPane sideSplit;
    javafx.scene.control.SplitPane mainSplit;
    private SidebarSplit sidebar;
    private ColumnChoice columnChoice;

    /**
     * {@code detail} and {@code workspace} are the detail pane and the workspace sidebar, loaded when first
     * needed; {@code workspaceController} is the sidebar's controller, which also owns the Workspace menu
     * and so exists before its view.
     */
    public MainController(MainViewModel model, SelectionActions selection, NewSessionDialogs dialogs, Theme theme, UiTasks tasks,
                          LateView<DetailController> detail, WorkspaceController workspaceController,
                          LateView<WorkspaceController> workspace) {
        this.model = model;
        this.detail = detail;
        this.workspaceController = workspaceController;
        this.workspace = workspace;
        this.selection = selection;
        this.dialogs = dialogs;
        this.theme = theme;
        this.tasks = tasks;
    }

    /** Builds the window's controls ({@link MainView}) and wires them; returns the root. FX thread. */
    public javafx.scene.Parent build() {
        javafx.scene.Parent built = MainView.build(this);
        initialize();
        return built;
    }

    private void initialize() {
        setUpColumns();
        sessionTable.setRowFactory(t -> new SessionTableRow());
        LayoutRoot.isolate(sessionTable); // its rows refresh every second
        sessionTable.setItems(model.sessions().visibleRows());
        model.sessions().visibleRows().comparatorProperty().bind(sessionTable.comparatorProperty());
        sessionTable.getSortOrder().addListener((ListChangeListener<TableColumn<SessionRow, ?>>) c ->
                model.sessions().setSortReads(liveColumnsOf(sessionTable.getSortOrder())));
        bindSelection();
        sessionTable.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.DELETE) {
                onRemove();
                e.consume();
            }
        });

        filterField.textProperty().bindBidirectional(model.sessions().filterTextProperty());
        statusChoice.getItems().setAll(StatusFilter.values());
        statusChoice.valueProperty().bindBidirectional(model.sessions().statusFilterProperty());

        countsLabel.textProperty().bind(model.countsText());
        // Beside the counts, only while it says more than the highlighted row does: how many rows the actions will act on.
        javafx.beans.binding.IntegerBinding chosenCount = javafx.beans.binding.Bindings.size(selection.chosen());
        selectionLabel.textProperty().bind(chosenCount.asString("%d selected"));
        selectionLabel.visibleProperty().bind(chosenCount.greaterThan(1));
        selectionLabel.managedProperty().bind(chosenCount.greaterThan(1));
        diskLabel.textProperty().bind(model.diskText());
        messageLabel.textProperty().bind(model.messageProperty());

        javafx.beans.binding.BooleanBinding none = javafx.beans.binding.Bindings.isEmpty(selection.chosen());
        toolbarRerun.disableProperty().bind(none);
        rerunMenuItem.disableProperty().bind(none);
        editRerunMenuItem.disableProperty().bind(model.noSelection());
        copyCommandMenuItem.disableProperty().bind(model.noSelection());
        openCwdMenuItem.disableProperty().bind(model.noSelection());
        toolbarKill.disableProperty().bind(selection.anyKillable().not());
        killMenuItem.disableProperty().bind(selection.anyKillable().not());
        signalMenu.disableProperty().bind(selection.anyRunning().not());
        for (Signal s : dev.runboard.ui.insight.SessionControl.MENU_SIGNALS) {
            MenuItem item = new MenuItem(s.name());
            item.setOnAction(e -> selection.signal(s));
            signalMenu.getItems().add(item);
        }
        toolbarRemove.disableProperty().bind(selection.anyFinished().not());
        removeMenuItem.disableProperty().bind(selection.anyFinished().not());
        TablePlaceholder.install(sessionTable, model.sessions());

        darkModeItem.selectedProperty().bindBidirectional(theme.darkProperty());
        Icons.iconOnly(toolbarRerun, "mdi2r-restart", "Ctrl+R");
        Icons.iconOnly(toolbarKill, "mdi2s-stop-circle-outline", "Ctrl+K");
        Icons.iconOnly(toolbarRemove, "mdi2d-delete-outline", "Delete");
        // The bar keeps one line, so a long warning ends in "..." there and reads whole here: wrapped, as on
        // one line a warning with a path in it ran past the screen's edges.
        Tooltip message = new Tooltip();
        message.setWrapText(true);
        message.setMaxWidth(600);
        message.textProperty().bind(messageLabel.textProperty());
        messageLabel.setTooltip(message);
        sidebar = SidebarSplit.install(sideSplit);
        workspace.whenLoaded((view, c) -> sidebar.attach(view));
        columnChoice = ColumnChoice.install(sessionTable, List.of(statusColumn, commandColumn),
                List.of(cwdColumn, startedColumn, rssColumn, cpuColumn, outputColumn, elapsedColumn, hostColumn));
        columnChoice.showOnlyWhen(hostColumn, RemoteRows.anyIn(model.sessions().rows()));
        CommandRoom.install(sessionTable, commandColumn);
        detail.whenLoaded((view, c) -> {
            c.setActions(this::onRerun, this::onEditRerun);
            c.rowProperty().bind(model.selectedProperty());
            replaceStandIn(view);
        });
        workspaceController.install(menuBar, sessionTable, model.selectedProperty());
    }

    /** The live values the sort order reads, so the table re-sorts on their changes and only on theirs. */
    private Set<LiveColumn> liveColumnsOf(List<TableColumn<SessionRow, ?>> order) {
        Set<LiveColumn> reads = EnumSet.noneOf(LiveColumn.class);
        for (TableColumn<SessionRow, ?> c : order) {
            if (c == lastLineColumn) {
                reads.add(LiveColumn.LAST_LINE);
            } else if (c == elapsedColumn || c == outputColumn || c == cpuColumn || c == rssColumn) {
                reads.add(LiveColumn.COUNTERS);
            }
        }
        return reads;
    }

    private void setUpColumns() {
        statusColumn.setCellValueFactory(c -> c.getValue().statusProperty());
        statusColumn.setCellFactory(c -> new StatusCell());
        commandColumn.setCellValueFactory(c -> c.getValue().commandProperty());
        commandColumn.setCellFactory(c -> new FormattedCell<>(Formats::oneLine, s -> s, "command-cell"));
        cwdColumn.setCellValueFactory(c -> c.getValue().cwdProperty());
        cwdColumn.setCellFactory(c -> new FormattedCell<>(Formats::shortPath, s -> s, "cwd-cell"));
        hostColumn.setCellValueFactory(c -> c.getValue().remoteProperty());
        hostColumn.setCellFactory(c -> new HostCell());
        startedColumn.setCellValueFactory(c -> c.getValue().startedAtProperty());
        startedColumn.setCellFactory(c -> new FormattedCell<>(Formats::startedAt, Formats::dateTime, "time-cell"));
        elapsedColumn.setCellValueFactory(c -> c.getValue().elapsedProperty());
        elapsedColumn.setCellFactory(c -> new FormattedCell<>(Formats::elapsed, "number-cell"));
        exitColumn.setCellValueFactory(c -> c.getValue().exitProperty());
        exitColumn.setCellFactory(c -> new FormattedCell<>(s -> s, "number-cell"));
        outputColumn.setCellValueFactory(c -> c.getValue().outputBytesProperty());
        outputColumn.setCellFactory(c -> new FormattedCell<>(Formats::bytes, "number-cell"));
        cpuColumn.setCellValueFactory(c -> InsightFormats.cpuCell(c.getValue()));
        cpuColumn.setCellFactory(c -> new FormattedCell<>(s -> s, "number-cell"));
        rssColumn.setCellValueFactory(c -> c.getValue().rssBytesProperty());
        rssColumn.setCellFactory(c -> new FormattedCell<>(Formats::bytes, b -> "resident memory of the whole tree (peak once ended)",
                "number-cell"));
        lastLineColumn.setCellValueFactory(c -> c.getValue().lastLineProperty());
        lastLineColumn.setCellFactory(c -> new FormattedCell<>(s -> s, "last-line-cell"));
    }

    private void bindSelection() {
        sessionTable.getSelectionModel().setSelectionMode(javafx.scene.control.SelectionMode.MULTIPLE);
        sessionTable.getSelectionModel().getSelectedItems().addListener((ListChangeListener<SessionRow>) c -> syncSelection());
        sessionTable.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> syncSelection());
        // When the filter hides a selected row, the table's selection model moves on its own and
        // does not always say so: read its state again once it has settled (at most once a pulse),
        // so the actions follow the row that really is selected.
        model.sessions().visibleRows().addListener((ListChangeListener<SessionRow>) c -> {
            if (syncPending.compareAndSet(false, true)) {
                tasks.fx(() -> {
                    syncPending.set(false);
                    syncSelection();
                });
            }
        });
        model.selectedProperty().addListener((o, was, now) -> {
            if (now == null) {
                sessionTable.getSelectionModel().clearSelection();
            } else if (sessionTable.getSelectionModel().getSelectedItem() != now) {
                int index = sessionTable.getItems().indexOf(now);
                if (index >= 0) {
                    sessionTable.getSelectionModel().clearAndSelect(index);
                    sessionTable.scrollTo(now);
                }
            }
        });
        // A removed or filtered-out selection leaves the detail pane empty rather than stale.
        model.sessions().rows().addListener((ListChangeListener<SessionRow>) c -> {
            while (c.next()) {
                if (c.wasRemoved() && !c.wasReplaced() && c.getRemoved().contains(model.selectedProperty().get())) {
                    model.selectedProperty().set(null);
                }
            }
        });
    }

    /** The detail pane takes its stand-in's place; replacing an item forgets the divider beside it, so it is put back. */
    private void replaceStandIn(javafx.scene.Node pane) {
        int at = mainSplit.getItems().indexOf(detailStandIn);
        if (at >= 0) {
            double[] dividers = mainSplit.getDividerPositions();
            mainSplit.getItems().set(at, pane);
            mainSplit.setDividerPositions(dividers);
        }
    }

    /** The table's selection as it is now: the rows the actions act on, and the one the detail pane shows. */
    private void syncSelection() {
        List<SessionRow> rows = sessionTable.getSelectionModel().getSelectedItems().stream()
                .filter(java.util.Objects::nonNull).toList();
        if (!rows.equals(selection.chosen())) {
            selection.chosen().setAll(rows);
        }
        SessionRow focus = sessionTable.getSelectionModel().getSelectedItem();
        if (focus != null && model.selectedProperty().get() != focus) {
            model.selectedProperty().set(focus);
        }
    }

    /** Focus goes to the table once the window shows, so the keyboard shortcuts work at once. */
    public void focusTable() {
        tasks.fx(sessionTable::requestFocus);
    }

    void onNew() {
        dialogs.open(root.getScene().getWindow(), null, model::launch);
    }

    void onRerun() {
        List<SessionRow> running = selection.runningDuplicates();
        if (running.isEmpty()) {
            selection.rerun();
            return;
        }
        AskDialogs.rerunWhileRunning(root.getScene().getWindow(), running, answer -> {
            if (answer == AskDialogs.BESIDE) {
                selection.rerun();
            } else {
                selection.restart();
            }
        });
    }

    void onEditRerun() {
        SessionRow row = model.selectedProperty().get();
        if (row != null) {
            SessionSpec spec = row.spec();
            dialogs.open(root.getScene().getWindow(), spec, model::launch);
        }
    }

    void onKill() {
        selection.kill(Signal.TERM);
    }

    void onRemove() {
        selection.remove();
    }

    void onClearFinished() {
        selection.clearFinished();
    }

    void onCopyCommand() {
        model.copyCommand();
    }

    void onOpenCwd() {
        model.openCwd();
    }

    void onFind() {
        detail.controller().focusFind();
    }

    void onSearchAllRuns() {
        searchAllRuns.run();
    }

    /** What "Search all runs" opens (the composition root makes the window). */
    public void setSearchAllRuns(Runnable open) {
        this.searchAllRuns = open;
    }

    void onFocusFilter() {
        filterField.requestFocus();
        filterField.selectAll();
    }

    void onFocusTable() {
        sessionTable.requestFocus();
        if (sessionTable.getSelectionModel().isEmpty() && !sessionTable.getItems().isEmpty()) {
            sessionTable.getSelectionModel().select(0);
        }
    }

    void onNextPane() {
        PaneCycle.move(root.getScene(), panes(), 1);
    }

    void onPreviousPane() {
        PaneCycle.move(root.getScene(), panes(), -1);
    }

    private List<javafx.scene.Node> panes() {
        List<javafx.scene.Node> panes = new java.util.ArrayList<>(List.of(sessionTable, detail.controller().outputList(),
                detail.controller().sideTabs()));
        if (workspace.isLoaded()) {
            panes.add(workspace.root());
        }
        panes.add(filterField);
        return panes;
    }

    void onOpenOutput() {
        detail.controller().openOutput();
    }

    void onKeyboardHelp() {
        KeyboardHelp.show(root.getScene().getWindow(), menuBar);
    }

    void onQuit() {
        // Through the close request, so Ctrl+Q and the window's close button ask the same question.
        javafx.stage.Window w = root.getScene().getWindow();
        w.fireEvent(new javafx.stage.WindowEvent(w, javafx.stage.WindowEvent.WINDOW_CLOSE_REQUEST));
    }

    /** Asks before closing while sessions run (unless told not to); true to close. */
    public boolean confirmClose(boolean ask, Runnable dontAskAgain) {
        int running = model.sessions().runningCountProperty().get();
        return !ask || running == 0 || AskDialogs.closeWithRunning(root.getScene().getWindow(), running, dontAskAgain);
    }

    public javafx.scene.control.SplitPane mainSplit() {
        return mainSplit;
    }

    /** Where the workspace sidebar's edge is, a fraction of the window's width (kept while the sidebar is hidden). */
    public javafx.beans.property.DoubleProperty sidebarPosition() {
        return sidebar.positionProperty();
    }

    /** The detail pane as a whole (DetailView.fxml's root), an item of {@link #mainSplit()} once loaded; asking loads it. */
    public javafx.scene.Node detailRoot() {
        return detail.root();
    }

    /** The detail pane, loaded when first needed (a selection, the first frame, or a caller here). */
    public LateView<DetailController> detail() {
        return detail;
    }

    /** The workspace sidebar, loaded when a workspace first opens or a caller asks for it. */
    public LateView<WorkspaceController> workspaceSidebar() {
        return workspace;
    }

    /** The detail pane's tabs (Facts, and what others add); asking loads the pane. */
    public javafx.scene.control.TabPane sideTabs() {
        return detail.controller().sideTabs();
    }

    /** The tool bar above the table (New session, the row actions, the filters). */
    public javafx.scene.control.ToolBar toolBar() {
        return toolBar;
    }

    /** The status filter in the tool bar. */
    public ChoiceBox<StatusFilter> statusChoice() {
        return statusChoice;
    }

    public WorkspaceController workspaceController() {
        return workspaceController;
    }

    public SelectionActions selection() {
        return selection;
    }

    public TableView<SessionRow> table() {
        return sessionTable;
    }

    /** The columns the person chose to hide (a column title's context menu). */
    public ColumnChoice columnChoice() {
        return columnChoice;
    }
}
