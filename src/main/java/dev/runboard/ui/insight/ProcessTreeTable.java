package dev.runboard.ui.insight;

import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.session.Signal;
import dev.runboard.ui.common.FollowedProperty;
import dev.runboard.ui.common.HoverTooltip;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.css.PseudoClass;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableRow;
import javafx.scene.control.TreeTableView;

/**
 * The session's processes as a tree: pid, command, state, CPU, memory. Updated in place each
 * poll (items keyed by pid) so selection, expansion and scroll survive; processes that left the
 * group but carry the session's tag are marked {@code :escaped}. A context menu sends a chosen
 * signal to one process or to its subtree.
 */
final class ProcessTreeTable extends TreeTableView<ProcessRow> {
    private static final PseudoClass ESCAPED = PseudoClass.getPseudoClass("escaped");
    private static final PseudoClass STOPPED = PseudoClass.getPseudoClass("stopped");

    /** What a menu choice asks for. */
    interface SignalTarget {
        void send(long pid, Signal signal, boolean subtree);
    }

    /** Below this width the State column is hidden (see the constructor). */
    private static final double NARROW = 420;
    private static final ReadOnlyStringWrapper NO_TEXT = new ReadOnlyStringWrapper("");
    private final Map<Long, TreeItem<ProcessRow>> items = new HashMap<>();
    private final TreeItem<ProcessRow> root = new TreeItem<>();
    private final Label placeholder = new Label();

    ProcessTreeTable(SignalTarget target) {
        getStyleClass().add("process-tree");
        setShowRoot(false);
        setRoot(root);
        setColumnResizePolicy(CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        setPlaceholder(placeholder);
        showRunning(false);
        // The tree's indent and disclosure arrows go in the Command column, as in htop's or ps's tree view:
        // a PID column that held them had to be wide for a deep tree and still cut its numbers in a narrow pane.
        // The numbers keep their width (7-digit pids, "100 %", "1.5 GB"), the state nearly; the command takes the rest.
        TreeTableColumn<ProcessRow, String> pid = column("PID", 64, 64, 64, r -> new ReadOnlyStringWrapper(Long.toString(r.pid())));
        TreeTableColumn<ProcessRow, String> state = column("State", 64, 78, 78, ProcessRow::stateProperty);
        TreeTableColumn<ProcessRow, String> cpu = column("CPU", 56, 56, 56, ProcessRow::cpuProperty);
        TreeTableColumn<ProcessRow, String> rss = column("RSS", 66, 66, 66, ProcessRow::rssProperty);
        TreeTableColumn<ProcessRow, String> command = column("Command", 90, 160, Double.MAX_VALUE, ProcessRow::commandProperty);
        pid.getStyleClass().add("number-column");
        cpu.getStyleClass().add("number-column");
        rss.getStyleClass().add("number-column");
        command.getStyleClass().add("command-column");
        command.setCellFactory(c -> new CommandCell());
        getColumns().setAll(List.of(pid, state, cpu, rss, command));
        setTreeColumn(command);
        // In a pane too narrow for all five (a workspace sidebar open beside it) the state goes first: a
        // stopped process still reads as one (its row is greyed), and the command keeps room to be read.
        widthProperty().addListener((o, was, now) -> state.setVisible(now.doubleValue() >= NARROW));
        setRowFactory(t -> new Row());
        setContextMenu(menu(target));
    }

    private static TreeTableColumn<ProcessRow, String> column(String name, double min, double pref, double max,
            java.util.function.Function<ProcessRow, javafx.beans.value.ObservableValue<String>> text) {
        TreeTableColumn<ProcessRow, String> c = new TreeTableColumn<>(name);
        c.setMinWidth(min);
        c.setPrefWidth(pref);
        c.setMaxWidth(max);
        c.setCellValueFactory(f -> f.getValue().getValue() == null ? NO_TEXT : text.apply(f.getValue().getValue()));
        return c;
    }

    private ContextMenu menu(SignalTarget target) {
        Menu one = new Menu("Send signal to this process");
        Menu sub = new Menu("Send signal to its subtree");
        for (Signal s : SessionControl.MENU_SIGNALS) {
            MenuItem a = new MenuItem(s.name());
            a.setOnAction(e -> selectedPid().ifPresent(pid -> target.send(pid, s, false)));
            MenuItem b = new MenuItem(s.name());
            b.setOnAction(e -> selectedPid().ifPresent(pid -> target.send(pid, s, true)));
            one.getItems().add(a);
            sub.getItems().add(b);
        }
        MenuItem killOne = new MenuItem("Kill this process (KILL)");
        killOne.setOnAction(e -> selectedPid().ifPresent(pid -> target.send(pid, Signal.KILL, false)));
        MenuItem killSub = new MenuItem("Kill its subtree (KILL)");
        killSub.setOnAction(e -> selectedPid().ifPresent(pid -> target.send(pid, Signal.KILL, true)));
        ContextMenu m = new ContextMenu(killOne, killSub, new javafx.scene.control.SeparatorMenuItem(), one, sub);
        m.setOnShowing(e -> m.getItems().forEach(i -> i.setDisable(selectedPid().isEmpty())));
        return m;
    }

    java.util.Optional<Long> selectedPid() {
        TreeItem<ProcessRow> item = getSelectionModel().getSelectedItem();
        return item == null || item.getValue() == null ? java.util.Optional.empty() : java.util.Optional.of(item.getValue().pid());
    }

    /** What an empty table says: a running session's tree appears with the monitor's next pass (once a second). */
    void showRunning(boolean running) {
        placeholder.setText(running ? "Reading the process tree\u2026" : "No processes: the session is not running.");
    }

    /** Shows a new snapshot, reusing the items (and rows) of processes that are still there. */
    void show(ProcessTreeSnapshot tree) {
        Set<Long> alive = new HashSet<>();
        for (ProcessTreeSnapshot.Node n : tree.nodes()) {
            alive.add(n.pid());
            TreeItem<ProcessRow> item = items.get(n.pid());
            if (item == null) {
                item = new TreeItem<>(new ProcessRow(n));
                item.setExpanded(true);
                items.put(n.pid(), item);
            } else {
                item.getValue().apply(n);
            }
        }
        items.keySet().retainAll(alive);
        place(root, tree.roots());
        for (ProcessTreeSnapshot.Node n : tree.nodes()) {
            place(items.get(n.pid()), tree.childrenOf(n.pid()));
        }
    }

    private void place(TreeItem<ProcessRow> parent, List<ProcessTreeSnapshot.Node> children) {
        List<TreeItem<ProcessRow>> want = new ArrayList<>(children.size());
        for (ProcessTreeSnapshot.Node c : children) {
            want.add(items.get(c.pid()));
        }
        if (!want.equals(parent.getChildren())) {
            parent.getChildren().setAll(want);
        }
    }

    /** The process's short command, with its whole command line (and what the wrapper is) on hover. */
    private static final class CommandCell extends TreeTableCell<ProcessRow, String> {
        private final HoverTooltip tip = new HoverTooltip(this);

        @Override
        protected void updateItem(String text, boolean empty) {
            super.updateItem(text, empty);
            setText(empty ? null : text);
            ProcessRow row = empty || getTableRow() == null ? null : getTableRow().getItem();
            ProcessTreeSnapshot.Node n = row == null ? null : row.node();
            tip.setText(n == null ? null : n.isWrapper() ? n.command() + "\n\nrunboard runs the command as this wrapper's child,"
                    + " so the exit status is recorded even when no runboard is watching." : n.command());
        }
    }

    /** Marks escaped and stopped processes, with a tooltip saying why a row is marked. */
    private static final class Row extends TreeTableRow<ProcessRow> {
        private final Tooltip escapedTip = new Tooltip("Left the session's process group (e.g. setsid) but carries its"
                + " RUNBOARD_SESSION tag: a kill still finds it.");
        private final FollowedProperty sample = new FollowedProperty(o -> mark());
        private ProcessRow shown;

        @Override
        protected void updateItem(ProcessRow r, boolean empty) {
            super.updateItem(r, empty);
            shown = empty ? null : r;
            sample.follow(shown == null ? null : shown.nodeProperty());
            mark();
        }

        private void mark() {
            ProcessTreeSnapshot.Node n = shown == null ? null : shown.node();
            boolean escaped = n != null && n.escapedGroup();
            pseudoClassStateChanged(ESCAPED, escaped);
            pseudoClassStateChanged(STOPPED, n != null && n.stopped());
            Tooltip tip = escaped ? escapedTip : null;
            if (getTooltip() != tip) {
                setTooltip(tip);
            }
        }
    }
}
