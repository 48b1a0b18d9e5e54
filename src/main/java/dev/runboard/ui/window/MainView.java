package dev.runboard.ui.window;

import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.Separator;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToolBar;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * The main window's controls, built in code into its {@link MainController}'s fields: the menus,
 * the toolbar, the sessions table, the detail pane's stand-in and the status bar, with the ids the
 * stylesheet and the tests look them up by. It was an FXML file; loading it cost the FX thread
 * ~150 ms of CPU before the first frame (the loader's reflection and its builders, on cold code),
 * against a few milliseconds for the same controls made here (docs/BENCHMARKS.md §14). The other
 * views, loaded after the first frame, keep their FXML.
 */
final class MainView {
    private MainView() {
    }

    /** Builds the view into {@code c}'s fields and returns its root. */
    static BorderPane build(MainController c) {
        BorderPane root = new BorderPane();
        root.setId("root");
        root.getStyleClass().add("main-view");
        c.root = root;
        root.setTop(new VBox(menuBar(c), toolBar(c)));
        root.setCenter(center(c));
        root.setBottom(statusBar(c));
        return root;
    }

    private static MenuBar menuBar(MainController c) {
        c.signalMenu = new Menu("Send _signal");
        c.signalMenu.setId("signalMenu");
        c.darkModeItem = new CheckMenuItem("_Dark mode");
        c.darkModeItem.setId("darkModeItem");
        c.rerunMenuItem = words(item("rerunMenuItem", "_Rerun", c::onRerun, "Shortcut+R"),
                "Rerun the selected sessions (asks when one still runs)");
        c.editRerunMenuItem = item("editRerunMenuItem", "_Edit & rerun…", c::onEditRerun, "Shortcut+Shift+R");
        c.killMenuItem = words(item("killMenuItem", "_Kill", c::onKill, "Shortcut+K"),
                "Kill the selected sessions (TERM to each tree, KILL after the grace)");
        c.removeMenuItem = item("removeMenuItem", "Re_move (Delete)", c::onRemove, null);
        c.copyCommandMenuItem = item("copyCommandMenuItem", "_Copy command", c::onCopyCommand, null);
        c.openCwdMenuItem = item("openCwdMenuItem", "_Open working folder", c::onOpenCwd, null);
        Menu session = new Menu("_Session", null,
                item("newMenuItem", "_New session…", c::onNew, "Shortcut+N"),
                c.rerunMenuItem, c.editRerunMenuItem, c.killMenuItem, c.signalMenu, c.removeMenuItem,
                item("clearFinishedMenuItem", "C_lear finished", c::onClearFinished, null),
                new SeparatorMenuItem(),
                c.copyCommandMenuItem, c.openCwdMenuItem,
                new SeparatorMenuItem(),
                words(item(null, "_Quit", c::onQuit, "Shortcut+Q"), "Quit (running sessions keep running)"));
        Menu view = new Menu("_View", null,
                item(null, "_Find in output", c::onFind, "Shortcut+F"),
                item(null, "Focus _filter", c::onFocusFilter, "Shortcut+L"),
                words(item(null, "Search _all runs…", c::onSearchAllRuns, "Shortcut+Shift+F"),
                        "Search the output of every run in the list"),
                item(null, "Focus the sessions _table", c::onFocusTable, "Shortcut+1"),
                words(item(null, "Next _pane", c::onNextPane, "F6"), "Next pane: table, output, side tabs, sidebar, filter"),
                item(null, "Previous pa_ne", c::onPreviousPane, "Shift+F6"),
                words(item("openOutputMenuItem", "_Open full output", c::onOpenOutput, "Shortcut+Shift+O"),
                        "Open the selected session's full output in the viewer"),
                new SeparatorMenuItem(),
                c.darkModeItem);
        Menu help = new Menu("_Help", null, words(item("keyboardMenuItem", "_Keyboard shortcuts", c::onKeyboardHelp, "F1"), "This list"));
        c.menuBar = new MenuBar(session, view, help);
        c.menuBar.setId("menuBar");
        return c.menuBar;
    }

    private static ToolBar toolBar(MainController c) {
        Button newButton = button("newButton", "+ New session", c::onNew);
        newButton.setMinWidth(Region.USE_PREF_SIZE);
        c.toolbarRerun = button("toolbarRerun", "Rerun", c::onRerun);
        c.toolbarKill = button("toolbarKill", "Kill", c::onKill);
        c.toolbarRemove = button("toolbarRemove", "Remove", c::onRemove);
        c.filterField = new TextField();
        c.filterField.setId("filterField");
        c.filterField.setPromptText("Filter sessions  (Ctrl+L)");
        c.filterField.setPrefColumnCount(20);
        c.filterField.setMinWidth(120);
        // A ChoiceBox, not a ComboBox, for a short fixed list: styling it and making its skin cost the FX
        // thread ~20 ms against ~85 ms, and the first frame came ~30 ms sooner (docs/BENCHMARKS.md §14).
        c.statusChoice = new ChoiceBox<>();
        c.statusChoice.setId("statusChoice");
        c.statusChoice.setPrefWidth(140);
        c.statusChoice.setMinWidth(Region.USE_PREF_SIZE);
        c.toolBar = new ToolBar(newButton, new Separator(Orientation.VERTICAL), c.toolbarRerun, c.toolbarKill, c.toolbarRemove,
                grow(new Pane()), c.filterField, c.statusChoice);
        c.toolBar.setId("toolBar");
        c.toolBar.getStyleClass().add("main-toolbar");
        return c.toolBar;
    }

    /**
     * The sessions table above the detail pane's stand-in. The workspace sidebar joins the outer split
     * only while a workspace is open (SidebarSplit); it and the detail pane are loaded when first needed,
     * not here: the first frame shows neither.
     */
    private static SplitPane center(MainController c) {
        c.sessionTable = new TableView<>();
        c.sessionTable.setId("sessionTable");
        c.sessionTable.getStyleClass().add("session-table");
        c.sessionTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        c.statusColumn = column("statusColumn", "Status", 130, 120);
        c.commandColumn = column("commandColumn", "Command", 208, 110);
        c.cwdColumn = column("cwdColumn", "Working dir", 175, 112);
        c.hostColumn = column("hostColumn", "Host", 190, 175);
        c.startedColumn = column("startedColumn", "Started", 112, 110); // "Dec 12 18:52" for a session of another day
        c.elapsedColumn = column("elapsedColumn", "Elapsed", 84, 82);
        c.exitColumn = column("exitColumn", "Exit", 92, 84);
        c.outputColumn = column("outputColumn", "Output", 80, 76);
        c.cpuColumn = column("cpuColumn", "CPU", 70, 64);
        c.rssColumn = column("rssColumn", "RSS", 88, 84); // "10.8 MiB" whole, at its minimum too (66 cut "7.7 MiB" at 1024 px)
        c.lastLineColumn = column("lastLineColumn", "Last line", 300, 100);
        c.sessionTable.getColumns().setAll(java.util.List.of(c.statusColumn, c.commandColumn, c.hostColumn, c.cwdColumn, c.startedColumn,
                c.elapsedColumn, c.exitColumn, c.outputColumn, c.cpuColumn, c.rssColumn, c.lastLineColumn));
        // The detail pane's place until it is loaded: what it shows with nothing selected.
        Label none = new Label("Select a session to see its output and facts.");
        none.getStyleClass().add("placeholder-label");
        c.detailStandIn = new StackPane(none);
        c.detailStandIn.setId("detailStandIn");
        c.detailStandIn.getStyleClass().add("detail-view");
        c.mainSplit = new SplitPane(c.sessionTable, c.detailStandIn);
        c.mainSplit.setId("mainSplit");
        c.mainSplit.setOrientation(Orientation.VERTICAL);
        c.mainSplit.setDividerPositions(0.45);
        c.sideSplit = new SplitPane(c.mainSplit);
        c.sideSplit.setId("sideSplit");
        c.sideSplit.setDividerPositions(0.24);
        return c.sideSplit;
    }

    private static HBox statusBar(MainController c) {
        c.countsLabel = new Label();
        c.countsLabel.setId("countsLabel");
        c.countsLabel.getStyleClass().add("status-counts");
        c.countsLabel.setMinWidth(Region.USE_PREF_SIZE);
        c.selectionLabel = new Label();
        c.selectionLabel.setId("selectionLabel");
        c.selectionLabel.getStyleClass().add("status-counts");
        c.selectionLabel.setMinWidth(Region.USE_PREF_SIZE);
        c.diskLabel = new Label();
        c.diskLabel.setId("diskLabel");
        c.diskLabel.setMinWidth(Region.USE_PREF_SIZE);
        Pane gap = grow(new Pane());
        gap.setMinWidth(12);
        c.messageLabel = new Label();
        c.messageLabel.setId("messageLabel");
        c.messageLabel.getStyleClass().addAll("status-message", "elides");
        c.messageLabel.setMinWidth(0);
        HBox bar = new HBox(12, c.countsLabel, c.selectionLabel, new Separator(Orientation.VERTICAL), c.diskLabel, gap, c.messageLabel);
        bar.setId("statusBar");
        bar.getStyleClass().add("status-bar");
        bar.setAlignment(Pos.CENTER_LEFT);
        return bar;
    }

    private static MenuItem item(String id, String text, Runnable action, String accelerator) {
        MenuItem item = new MenuItem(text);
        item.setId(id);
        item.setOnAction(e -> action.run());
        if (accelerator != null) {
            item.setAccelerator(KeyCombination.valueOf(accelerator));
        }
        return item;
    }

    /** The item's words in F1's list of shortcuts (KeyboardHelp), where its title alone says too little. */
    private static MenuItem words(MenuItem item, String words) {
        item.getProperties().put(KeyboardHelp.WORDS, words);
        return item;
    }

    private static Button button(String id, String text, Runnable action) {
        Button button = new Button(text);
        button.setId(id);
        button.setOnAction(e -> action.run());
        return button;
    }

    private static <S, T> TableColumn<S, T> column(String id, String text, double prefWidth, double minWidth) {
        TableColumn<S, T> column = new TableColumn<>(text);
        column.setId(id);
        column.setPrefWidth(prefWidth);
        column.setMinWidth(minWidth);
        return column;
    }

    private static <N extends Node> N grow(N node) {
        HBox.setHgrow(node, Priority.ALWAYS);
        return node;
    }
}
