package dev.runboard.ui.workspace;

import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.workspace.Workspace;
import java.io.File;
import java.nio.file.Path;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextInputDialog;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;

/**
 * The workspace sidebar (left of the table) and the Workspace menu. Shown only while a workspace
 * is open, so the window without one looks as before.
 */
public final class WorkspaceController {
    private final WorkspaceViewModel model;
    private ObjectProperty<SessionRow> selected;
    private TableView<SessionRow> table;
    private TableColumn<SessionRow, String> tagColumn;

    @FXML private VBox workspaceSidebar;
    @FXML private Label workspaceName;
    @FXML private Label workspacePath;
    @FXML private Label workspaceError;
    @FXML private javafx.scene.layout.HBox workspaceErrorBox;
    @FXML private Button copyErrorButton;
    @FXML private Button runAllButton;
    @FXML private Button stopAllButton;
    @FXML private ListView<CommandEntry> commandList;
    @FXML private Button upButton;
    @FXML private Button downButton;
    @FXML private VBox stackSection;
    @FXML private ListView<StackViewModel.Line> stackList;
    @FXML private javafx.scene.control.TabPane stackTabs;
    @FXML private ListView<StackLogViewModel.Line> stackLogList;
    @FXML private VBox discoveredSection;
    @FXML private Label discoveredCount;
    @FXML private ListView<dev.runboard.workspace.DiscoveredCommand> discoveredList;

    /** Scrolls still allowed to bring the Logs tab's newest line into view (a few per batch: sizes are estimated). */
    private int logTailTries;
    @FXML private javafx.scene.control.Tab stackLogsTab;

    /** After a layout: the Logs tab's last line fully in view, while lines came and the tab shows. */
    private final Runnable followLogTail = () -> {
        int last = stackLogList.getItems().size() - 1;
        if (logTailTries <= 0 || last < 0 || !stackLogsTab.isSelected()
                || !(stackLogList.lookup(".virtual-flow") instanceof javafx.scene.control.skin.VirtualFlow<?> flow)) {
            return;
        }
        javafx.scene.control.IndexedCell<?> shown = flow.getLastVisibleCell();
        if (shown != null && shown.getIndex() >= last) {
            logTailTries = 0;
            return;
        }
        logTailTries--;
        flow.scrollTo(last); // the least scroll that shows it whole, unlike ListView.scrollTo (to the top)
    };

    public WorkspaceController(WorkspaceViewModel model) {
        this.model = model;
    }

    @FXML
    private void initialize() {
        workspaceSidebar.visibleProperty().bind(model.openProperty());
        workspaceSidebar.managedProperty().bind(model.openProperty());
        workspaceName.textProperty().bind(Bindings.createStringBinding(
                () -> model.workspace() == null ? "" : model.workspace().displayName(), model.workspaceProperty()));
        workspacePath.textProperty().bind(Bindings.createStringBinding(
                () -> model.workspace() == null ? "" : dev.runboard.ui.common.Formats.shortPath(model.workspace().root().toString()),
                model.workspaceProperty()));
        Tooltip pathTip = new Tooltip();
        pathTip.textProperty().bind(Bindings.createStringBinding(
                () -> model.workspace() == null ? "" : model.workspace().file().toString(), model.workspaceProperty()));
        workspacePath.setTooltip(pathTip);
        Tooltip nameTip = new Tooltip();
        nameTip.textProperty().bind(workspaceName.textProperty());
        workspaceName.setTooltip(nameTip);
        workspaceError.textProperty().bind(model.errorProperty());
        // The whole message, wrapped (minHeight: never cut to "..."), in a tooltip too, and copyable.
        workspaceErrorBox.visibleProperty().bind(model.errorProperty().isNotEmpty());
        workspaceErrorBox.managedProperty().bind(workspaceErrorBox.visibleProperty());
        workspaceError.visibleProperty().bind(workspaceErrorBox.visibleProperty());
        Tooltip errorTip = new Tooltip();
        errorTip.setWrapText(true);
        errorTip.setMaxWidth(600);
        errorTip.textProperty().bind(model.errorProperty());
        workspaceError.setTooltip(errorTip);
        dev.runboard.ui.common.Icons.iconOnly(copyErrorButton, "mdi2c-content-copy", null);
        copyErrorButton.getTooltip().setText("Copy the message");

        commandList.setItems(model.entries());
        commandList.setCellFactory(l -> new CommandCell(model));
        runAllButton.disableProperty().bind(Bindings.isEmpty(model.entries()));
        stopAllButton.disableProperty().bind(model.anyRunning().not());
        // The empty list says what to do next: import a discovered command only when some were found.
        Label emptyList = (Label) commandList.getPlaceholder();
        emptyList.textProperty().bind(Bindings.when(Bindings.isEmpty(model.discovered()))
                .then("No commands yet. Select a session and use Workspace → Save session to workspace…,"
                        + " or add commands to runboard.yaml.")
                .otherwise("No commands yet. Import one found below, or select a session and use Workspace →"
                        + " Save session to workspace…"));

        stackList.setItems(model.stack().lines());
        stackList.setCellFactory(l -> new javafx.scene.control.ListCell<>() {
            @Override
            protected void updateItem(StackViewModel.Line line, boolean empty) {
                super.updateItem(line, empty);
                setText(empty || line == null ? null : line.text());
            }
        });
        stackSection.visibleProperty().bind(Bindings.isNotEmpty(model.stack().lines()));
        stackSection.managedProperty().bind(stackSection.visibleProperty());
        stackList.prefHeightProperty().bind(Bindings.min(240, Bindings.size(model.stack().lines()).multiply(26).add(4)));
        upButton.disableProperty().bind(Bindings.isEmpty(model.entries()));
        stackLogList.setItems(model.stack().logs().lines());
        stackLogList.setCellFactory(l -> new StackLogCell());
        // Follows the tail: the newest line in view whenever lines come. The list's flow learns the new count
        // only at its next layout (a scroll before it stops at the old end), so the scroll follows the layout.
        model.stack().logs().lines().addListener((javafx.collections.ListChangeListener<StackLogViewModel.Line>) c -> {
            logTailTries = 3;
            stackLogList.requestLayout();
        });
        stackLogList.sceneProperty().addListener((o, was, now) -> {
            if (was != null) {
                was.removePostLayoutPulseListener(followLogTail);
            }
            if (now != null) {
                now.addPostLayoutPulseListener(followLogTail);
            }
        });

        discoveredList.setItems(model.discovered());
        discoveredList.setCellFactory(l -> new DiscoveredCell(model));
        discoveredSection.visibleProperty().bind(Bindings.isNotEmpty(model.discovered()));
        discoveredSection.managedProperty().bind(discoveredSection.visibleProperty());
        discoveredCount.textProperty().bind(Bindings.size(model.discovered()).asString());
        // Lists as tall as their content, up to a point, so both sections fit in the sidebar.
        discoveredList.prefHeightProperty().bind(Bindings.min(280, Bindings.size(model.discovered()).multiply(46).add(4)));
    }

    /**
     * Adds the Workspace menu (before Help) and the table's workspace tag column; called once by the
     * main controller, which owns the menu bar and the table.
     */
    public void install(MenuBar menuBar, TableView<SessionRow> sessionTable, ObjectProperty<SessionRow> selectedRow) {
        this.selected = selectedRow;
        this.table = sessionTable;
        Menu menu = new Menu("_Workspace");
        menu.setId("workspaceMenu");
        MenuItem open = new MenuItem("_Open folder as workspace\u2026");
        open.setId("openWorkspaceMenuItem");
        open.setAccelerator(KeyCombination.keyCombination("Shortcut+O"));
        open.setOnAction(e -> chooseFolder());
        Menu recent = new Menu("Open _recent");
        recent.setId("recentWorkspacesMenu");
        menu.setOnShowing(e -> fillRecent(recent));
        fillRecent(recent);
        MenuItem runAll = new MenuItem("Run _all");
        runAll.setOnAction(e -> onRunAll());
        runAll.disableProperty().bind(model.openProperty().not());
        MenuItem stopAll = new MenuItem("_Stop all");
        stopAll.setOnAction(e -> onStopAll());
        stopAll.disableProperty().bind(model.openProperty().not().or(model.anyRunning().not()));
        MenuItem save = new MenuItem("Save session to _workspace\u2026");
        save.setId("saveToWorkspaceMenuItem");
        save.setOnAction(e -> saveSelectedSession());
        save.disableProperty().bind(model.openProperty().not().or(selectedRow.isNull()));
        MenuItem close = new MenuItem("_Close workspace");
        close.setOnAction(e -> model.closeWorkspace());
        close.disableProperty().bind(model.openProperty().not());
        menu.getItems().setAll(open, recent, new SeparatorMenuItem(), runAll, stopAll, save, new SeparatorMenuItem(), close);
        int help = menuBar.getMenus().size() - 1;
        menuBar.getMenus().add(Math.max(0, help), menu);

        model.workspaceProperty().addListener((o, was, now) -> {
            if (now != null) {
                addTagColumn();
            }
        });
    }

    private void fillRecent(Menu recent) {
        recent.getItems().clear();
        for (Path p : model.recent()) {
            MenuItem item = new MenuItem(p.toString());
            item.setMnemonicParsing(false);
            item.setOnAction(e -> model.open(p));
            recent.getItems().add(item);
        }
        recent.setDisable(recent.getItems().isEmpty());
    }

    /** A "Workspace" column after the command: which workspace command a session ran. */
    private void addTagColumn() {
        if (tagColumn != null || table == null) {
            return;
        }
        tagColumn = new TableColumn<>("Workspace");
        tagColumn.setId("workspaceColumn");
        tagColumn.setPrefWidth(130);
        tagColumn.setMinWidth(110);
        tagColumn.setCellValueFactory(c -> {
            RunLink link = model.linkOf(c.getValue());
            return new ReadOnlyStringWrapper(link == null ? "" : link.tag());
        });
        tagColumn.setCellFactory(c -> new javafx.scene.control.TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                getStyleClass().remove("ws-tag-cell");
                getStyleClass().add("ws-tag-cell");
            }
        });
        String css = WorkspaceController.class.getResource("/dev/runboard/ui/workspace/workspace.css").toExternalForm();
        if (!table.getStylesheets().contains(css)) {
            table.getStylesheets().add(css);
        }
        // Shown once a row came from a workspace command: an empty column would take the command's room.
        tagColumn.visibleProperty().bind(model.anyLinked());
        int after = Math.min(2, table.getColumns().size());
        table.getColumns().add(after, tagColumn);
    }

    public void chooseFolder() {
        DirectoryChooser chooser = new DirectoryChooser();
        chooser.setTitle("Open a folder as a workspace");
        Workspace ws = model.workspace();
        File start = ws != null ? ws.root().toFile() : new File(System.getProperty("user.dir"));
        if (start.isDirectory()) {
            chooser.setInitialDirectory(start);
        }
        File dir = chooser.showDialog(window());
        if (dir != null) {
            model.open(dir.toPath());
        }
    }

    /**
     * The main window, for the dialogs' owner: the table is always in it, while the sidebar is there
     * only while a workspace is open (and is not loaded before one first opens).
     */
    private javafx.stage.Window window() {
        return table == null || table.getScene() == null ? null : table.getScene().getWindow();
    }

    /** Asks for a name and saves the selected session's command to runboard.yaml. */
    public void saveSelectedSession() {
        SessionRow row = selected == null ? null : selected.get();
        if (row == null || model.workspace() == null) {
            return;
        }
        TextInputDialog ask = new TextInputDialog(model.suggestName(row));
        ask.initOwner(window());
        ask.setTitle("Save to workspace");
        ask.setHeaderText("Save \u201C" + row.commandProperty().get() + "\u201D to " + model.workspace().file().getFileName()
                + " of " + model.workspace().displayName());
        ask.setContentText("Command name:");
        ask.getDialogPane().lookupButton(javafx.scene.control.ButtonType.OK).setId("saveToWorkspaceButton");
        ask.getEditor().setId("saveToWorkspaceName");
        dev.runboard.ui.common.ScreenFit.openWhole(ask);
        ask.show();
        ask.setOnHidden(e -> {
            String name = ask.getResult();
            if (name != null && !name.isBlank()) {
                model.saveSession(row, name);
            }
        });
    }

    @FXML
    void onRunAll() {
        model.runAll();
    }

    @FXML
    void onStopAll() {
        model.stopAll();
    }

    @FXML
    void onUp() {
        model.stack().up(java.util.List.of());
    }

    @FXML
    void onDown() {
        model.stack().down();
    }

    @FXML
    void onCopyError() {
        javafx.scene.input.ClipboardContent content = new javafx.scene.input.ClipboardContent();
        content.putString(model.errorProperty().get());
        javafx.scene.input.Clipboard.getSystemClipboard().setContent(content);
    }

    @FXML
    void onOpenFolder() {
        chooseFolder();
    }
}
