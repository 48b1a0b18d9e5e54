package dev.runboard.ui.window;

import java.util.List;
import java.util.Set;
import javafx.collections.FXCollections;
import javafx.collections.ObservableSet;
import javafx.collections.SetChangeListener;
import javafx.scene.Node;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.input.ContextMenuEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;

/**
 * Which of the sessions table's columns the person chose to see: right-clicking any column's title
 * opens a menu with a check per column, as in a file manager's list view. The columns that say
 * which session a row is (Status, Command) always show. The choice is kept by column id
 * ({@link #hiddenIds()}, remembered in ui-state.json by the window's memory); the columns the
 * window's width pushes aside ({@link ResponsiveColumns}) stay chosen and return with room. A
 * right-click on a title opens this menu and does not sort; a primary click sorts.
 */
public final class ColumnChoice {
    private final TableView<?> table;
    private final Set<TableColumn<?, ?>> always;
    private final ObservableSet<String> hidden = FXCollections.observableSet();
    private final ContextMenu menu = new ContextMenu();
    /** Columns that only mean something for some rows (Host: remote sessions), with whether any such row is listed. */
    private final java.util.Map<TableColumn<?, ?>, javafx.beans.value.ObservableBooleanValue> onlyWhen = new java.util.HashMap<>();
    private ResponsiveColumns fitter;

    private ColumnChoice(TableView<?> table, Set<TableColumn<?, ?>> always) {
        this.table = table;
        this.always = always;
    }

    /** Installs the titles' menu; {@code always}: the columns that cannot be hidden. */
    static ColumnChoice install(TableView<?> table, List<? extends TableColumn<?, ?>> always,
            List<? extends TableColumn<?, ?>> hideFirst) {
        ColumnChoice choice = new ColumnChoice(table, Set.copyOf(always));
        choice.fitter = ResponsiveColumns.install(table, hideFirst, choice::wanted);
        // On the header row only (as JabRef's main table does): the rows keep whatever menu they have. A filter,
        // so that it runs before any handler; the columns present when it opens are listed (Progress and a
        // workspace's tag column join later).
        table.addEventFilter(ContextMenuEvent.CONTEXT_MENU_REQUESTED, e -> {
            if (e.getTarget() instanceof Node target && inHeader(target, table)) {
                choice.fillMenu();
                choice.menu.show(table, e.getScreenX(), e.getScreenY());
                e.consume();
            }
        });
        // JavaFX's column title sorts on the release of any button that is not the menu's trigger, and on Linux
        // the trigger is the press: the right-click that opens the menu above re-sorted the table too. Only a
        // primary click sorts. The release is not simply dropped: the title's handler also ends the press's lock
        // on resizing columns, so it is handed on marked as the menu's trigger, which ends the press unsorted.
        table.addEventFilter(MouseEvent.MOUSE_RELEASED, e -> {
            if (e.getButton() != MouseButton.PRIMARY && !e.isPopupTrigger() && e.getTarget() instanceof Node target
                    && inHeader(target, table)) {
                e.consume();
                target.fireEvent(asMenuTrigger(e));
            }
        });
        choice.hidden.addListener((SetChangeListener<String>) change -> choice.fitter.fit());
        return choice;
    }

    private static MouseEvent asMenuTrigger(MouseEvent e) {
        return new MouseEvent(MouseEvent.MOUSE_RELEASED, e.getSceneX(), e.getSceneY(), e.getScreenX(), e.getScreenY(),
                e.getButton(), e.getClickCount(), e.isShiftDown(), e.isControlDown(), e.isAltDown(), e.isMetaDown(),
                e.isPrimaryButtonDown(), e.isMiddleButtonDown(), e.isSecondaryButtonDown(), e.isSynthesized(), true,
                e.isStillSincePress(), e.getPickResult());
    }

    private static boolean inHeader(Node node, TableView<?> table) {
        for (Node n = node; n != null && n != table; n = n.getParent()) {
            if (n.getStyleClass().contains("column-header-background")) {
                return true;
            }
        }
        return false;
    }

    /** The ids of the columns the person hid; change it to hide or show them (the window's memory restores it). */
    public ObservableSet<String> hiddenIds() {
        return hidden;
    }

    /** The titles' menu (for tests: what it offers and checks). */
    public ContextMenu menu() {
        return menu;
    }

    /**
     * Shows {@code column} only while {@code relevant} holds (a Host column with no remote session
     * would be an empty one taking the room of others); the person's choice still applies on top.
     */
    public void showOnlyWhen(TableColumn<?, ?> column, javafx.beans.value.ObservableBooleanValue relevant) {
        onlyWhen.put(column, relevant);
        relevant.addListener((o, was, now) -> fitter.fit());
        fitter.fit();
    }

    private boolean relevant(TableColumn<?, ?> c) {
        javafx.beans.value.ObservableBooleanValue r = onlyWhen.get(c);
        return r == null || r.get();
    }

    private boolean wanted(TableColumn<?, ?> c) {
        return c.getId() == null || always.contains(c) || !hidden.contains(c.getId()) && relevant(c);
    }

    private void fillMenu() {
        menu.getItems().clear();
        for (TableColumn<?, ?> c : table.getColumns()) {
            if (c.getId() == null || always.contains(c) || !relevant(c)) {
                continue;
            }
            CheckMenuItem item = new CheckMenuItem(c.getText());
            item.setId("show-" + c.getId());
            item.setSelected(!hidden.contains(c.getId()));
            item.setOnAction(e -> {
                if (item.isSelected()) {
                    hidden.remove(c.getId());
                } else {
                    hidden.add(c.getId());
                }
            });
            menu.getItems().add(item);
        }
    }
}
