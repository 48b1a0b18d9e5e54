package dev.runboard.ui.insight;

import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.ui.common.Icons;
import dev.runboard.ui.common.LayoutRoot;
import dev.runboard.ui.sessions.SessionRow;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Orientation;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The detail pane's "see inside" parts for the selected session: the Processes and Resources tabs,
 * the stdin line, the signal menu and pause/resume (the header's status says "paused"). All follow the selected row's
 * insight, which the poller refreshes; nothing here polls or samples.
 */
public final class InsightPane {
    public static final String STYLESHEET = "/dev/runboard/ui/insight/insight.css";

    private final ObjectProperty<SessionRow> row;
    private final SessionControl control;
    private final ProcessTreeTable tree;
    private final ResourceCharts charts = new ResourceCharts();
    private final SimpleBooleanProperty paused = new SimpleBooleanProperty(this, "paused");
    private final SimpleBooleanProperty running = new SimpleBooleanProperty(this, "running");
    private final ChangeListener<SessionInsight> insightChanged = (o, was, now) -> showInsight(now);
    private final ChangeListener<Boolean> pausedChanged = (o, was, now) -> paused.set(now);
    private final ChangeListener<SessionStatus> statusChanged = (o, was, now) -> running.set(now != null && now.isLive());

    public InsightPane(ObjectProperty<SessionRow> row, SessionControl control) {
        this.row = row;
        this.control = control;
        this.tree = new ProcessTreeTable((pid, signal, subtree) -> control.signalProcess(row.get(), pid, signal, subtree));
        tree.setId("processTree");
        running.addListener((o, was, now) -> tree.showRunning(now));
        charts.setId("resourceCharts");
        row.addListener((o, was, now) -> {
            if (was != null) {
                was.insightProperty().removeListener(insightChanged);
                was.pausedProperty().removeListener(pausedChanged);
                was.statusProperty().removeListener(statusChanged);
            }
            if (now != null) {
                now.insightProperty().addListener(insightChanged);
                now.pausedProperty().addListener(pausedChanged);
                now.statusProperty().addListener(statusChanged);
            }
            paused.set(now != null && now.pausedProperty().get());
            running.set(now != null && now.isRunning());
            showInsight(now == null ? null : now.insightProperty().get());
        });
    }

    private void showInsight(SessionInsight i) {
        tree.show(i == null ? ProcessTreeSnapshot.EMPTY : i.tree());
        charts.show(i);
    }

    /**
     * Adds the "Processes" tab (the tree above, the charts below) first and selects it: for a
     * running session what it is doing now matters most; the facts stay one click away.
     */
    public void installTabs(TabPane tabs) {
        tabs.getStylesheets().add(STYLESHEET);
        ScrollPane scroll = new ScrollPane(charts);
        scroll.setFitToWidth(true);
        scroll.getStyleClass().add("charts-scroll");
        SplitPane split = new SplitPane(tree, scroll);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.75); // the tree first: at 0.45 it showed two or three processes at 1024x700, at 0.62 four
        split.getStyleClass().add("insight-split");
        LayoutRoot.isolate(split); // the tree and the charts refresh every second
        Tab processes = new Tab("Processes", split);
        processes.setId("processesTab");
        tabs.getTabs().add(0, processes);
        tabs.getSelectionModel().select(processes);
    }

    /** The stdin line: text, Send (with newline), Send without newline, Close stdin. */
    public HBox stdinBar() {
        TextField input = new TextField();
        input.setId("stdinField");
        input.setPromptText("Type input for the command's stdin, Enter sends it with a newline");
        HBox.setHgrow(input, Priority.ALWAYS);
        Button send = new Button("Send");
        send.setId("stdinSend");
        send.setMinWidth(Button.USE_PREF_SIZE);
        Button raw = Icons.iconOnly(new Button("Send without newline"), "mdi2s-send-outline", null);
        raw.setId("stdinSendRaw");
        Button close = Icons.iconOnly(new Button("Close stdin"), "mdi2c-close-box-outline", null);
        close.setId("stdinClose");
        close.getTooltip().setText("Close stdin: send end-of-file, the command reads no more input");
        Runnable sendLine = () -> {
            control.send(row.get(), input.getText(), true);
            input.clear();
        };
        send.setOnAction(e -> sendLine.run());
        input.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                sendLine.run();
                e.consume();
            }
        });
        raw.setOnAction(e -> {
            control.send(row.get(), input.getText(), false);
            input.clear();
        });
        close.setOnAction(e -> control.closeStdin(row.get()));
        Label label = new Label("stdin");
        label.setMinWidth(Label.USE_PREF_SIZE);
        input.setMinWidth(80);
        label.getStyleClass().add("pane-title");
        HBox bar = new HBox(6, label, input, send, raw, close);
        bar.getStyleClass().add("stdin-bar");
        bar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        bar.disableProperty().bind(running.not());
        bar.getStylesheets().add(STYLESHEET);
        return bar;
    }

    /** Fills the header's signal menu (one signal to the whole group, no escalation). */
    public void installSignalMenu(MenuButton menu) {
        menu.getItems().clear();
        for (Signal s : SessionControl.MENU_SIGNALS) {
            MenuItem item = new MenuItem(describe(s));
            item.setId("signal" + s.name());
            item.setOnAction(e -> control.signal(row.get(), s));
            menu.getItems().add(item);
        }
        menu.disableProperty().bind(running.not());
    }

    /** Pause (STOP) / Resume (CONT) as one button whose word follows the tree's real state (from /proc). */
    public void installPauseToggle(Button toggle) {
        toggle.textProperty().bind(Bindings.when(paused).then("Resume").otherwise("Pause"));
        toggle.setOnAction(e -> control.pause(row.get(), !paused.get()));
        toggle.disableProperty().bind(running.not());
        toggle.setTooltip(new Tooltip("Pause sends STOP to the whole tree; Resume sends CONT"));
    }

    private static String describe(Signal s) {
        return switch (s) {
            case INT -> "INT  (interrupt, like Ctrl+C)";
            case TERM -> "TERM (ask to terminate)";
            case HUP -> "HUP  (hang up / reload)";
            case USR1 -> "USR1";
            case USR2 -> "USR2";
            case STOP -> "STOP (pause)";
            case CONT -> "CONT (resume)";
            case KILL -> "KILL (end at once)";
            default -> s.name();
        };
    }
}
