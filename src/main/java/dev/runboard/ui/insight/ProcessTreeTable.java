package dev.runboard.ui.insight;

import dev.runboard.process.ProcessTreeSnapshot;
import dev.runboard.process.Signal;
import dev.runboard.ui.Formats;
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
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableRow;
import javafx.scene.control.TreeTableView;
import javafx.scene.control.Tooltip;

/**
 * The session's processes as a tree: pid, command, state, CPU, memory. Updated in place each
 * poll (items keyed by pid) so selection, expansion and scroll survive; processes that left the
 * group but carry the session's tag are marked {@code :escaped}. A context menu sends a chosen
 * signal to one process or to its subtree.
 */
final class ProcessTreeTable extends TreeTableView<ProcessTreeSnapshot.Node> {
    private static final PseudoClass ESCAPED = PseudoClass.getPseudoClass("escaped");
    private static final PseudoClass STOPPED = PseudoClass.getPseudoClass("stopped");

    /** What a menu choice asks for. */
    interface SignalTarget {
        void send(long pid, Signal signal, boolean subtree);
    }

    private final Map<Long, TreeItem<ProcessTreeSnapshot.Node>> items = new HashMap<>();
    private final TreeItem<ProcessTreeSnapshot.Node> root = new TreeItem<>();

    ProcessTreeTable(SignalTarget target) {
        getStyleClass().add("process-tree");
        setShowRoot(false);
        setRoot(root);
        setColumnResizePolicy(CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        setPlaceholder(new Label("No processes: the session is not running."));
        // Wide enough for 5-7 digit PIDs nested three levels deep under their disclosure arrows.
        TreeTableColumn<ProcessTreeSnapshot.Node, String> pid = column("PID", 116, n -> Long.toString(n.pid()));
        TreeTableColumn<ProcessTreeSnapshot.Node, String> state = column("State", 76, n -> n.stateWord() + (n.escapedGroup() ? " \u00b7 escaped" : ""));
        TreeTableColumn<ProcessTreeSnapshot.Node, String> cpu = column("CPU", 52, n -> InsightFormats.cpu(n.cpuPercent()));
        TreeTableColumn<ProcessTreeSnapshot.Node, String> rss = column("RSS", 64, n -> Formats.bytes(n.rssBytes()));
        TreeTableColumn<ProcessTreeSnapshot.Node, String> command = column("Command", 120, ProcessTreeSnapshot.Node::command);
        cpu.getStyleClass().add("number-column");
        rss.getStyleClass().add("number-column");
        command.getStyleClass().add("command-column");
        getColumns().setAll(List.of(pid, state, cpu, rss, command));
        setRowFactory(t -> new Row());
        setContextMenu(menu(target));
    }

    private static TreeTableColumn<ProcessTreeSnapshot.Node, String> column(String name, double width,
            java.util.function.Function<ProcessTreeSnapshot.Node, String> text) {
        TreeTableColumn<ProcessTreeSnapshot.Node, String> c = new TreeTableColumn<>(name);
        c.setPrefWidth(width);
        c.setMinWidth(Math.min(width, 52));
        c.setCellValueFactory(f -> new ReadOnlyStringWrapper(f.getValue().getValue() == null ? "" : text.apply(f.getValue().getValue())));
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
        TreeItem<ProcessTreeSnapshot.Node> item = getSelectionModel().getSelectedItem();
        return item == null || item.getValue() == null ? java.util.Optional.empty() : java.util.Optional.of(item.getValue().pid());
    }

    /** Shows a new snapshot, reusing the items of processes that are still there. */
    void show(ProcessTreeSnapshot tree) {
        Set<Long> alive = new HashSet<>();
        for (ProcessTreeSnapshot.Node n : tree.nodes()) {
            alive.add(n.pid());
            TreeItem<ProcessTreeSnapshot.Node> item = items.computeIfAbsent(n.pid(), k -> {
                TreeItem<ProcessTreeSnapshot.Node> t = new TreeItem<>();
                t.setExpanded(true);
                return t;
            });
            if (!n.equals(item.getValue())) {
                item.setValue(n);
            }
        }
        items.keySet().retainAll(alive);
        place(root, tree.roots());
        for (ProcessTreeSnapshot.Node n : tree.nodes()) {
            place(items.get(n.pid()), tree.childrenOf(n.pid()));
        }
    }

    private void place(TreeItem<ProcessTreeSnapshot.Node> parent, List<ProcessTreeSnapshot.Node> children) {
        List<TreeItem<ProcessTreeSnapshot.Node>> want = new ArrayList<>(children.size());
        for (ProcessTreeSnapshot.Node c : children) {
            want.add(items.get(c.pid()));
        }
        if (!want.equals(parent.getChildren())) {
            parent.getChildren().setAll(want);
        }
    }

    /** Marks escaped and stopped processes, with a tooltip saying why a row is marked. */
    private static final class Row extends TreeTableRow<ProcessTreeSnapshot.Node> {
        private final Tooltip escapedTip = new Tooltip("Left the session's process group (e.g. setsid) but carries its"
                + " RUNBOARD_SESSION tag: a kill still finds it.");

        @Override
        protected void updateItem(ProcessTreeSnapshot.Node n, boolean empty) {
            super.updateItem(n, empty);
            boolean escaped = !empty && n != null && n.escapedGroup();
            pseudoClassStateChanged(ESCAPED, escaped);
            pseudoClassStateChanged(STOPPED, !empty && n != null && n.stopped());
            setTooltip(escaped ? escapedTip : null);
        }
    }
}
