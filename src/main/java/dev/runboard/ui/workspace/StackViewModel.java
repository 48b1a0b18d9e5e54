package dev.runboard.ui.workspace;

import dev.runboard.session.SessionSnapshot;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.main.MainViewModel;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.workspace.Workspace;
import dev.runboard.workspace.WorkspaceCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.InvalidationListener;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;

/**
 * The workspace as a stack (issue #17): Up and Down (the supervisor's {@code up} and
 * {@code down}, so the order, readiness, restarts and queues hold with the window closed), and
 * the dependency view — each command under what it waits for, with the state of its latest run.
 * FX thread only; up and down run in the background.
 */
public final class StackViewModel {
    /** One line of the dependency view: a command at its depth, its latest run's state and reason. */
    public record Line(String name, int depth, String state, String reason) {
        /** The text the view shows: indented name, state, and the reason when it waits or was skipped. */
        public String text() {
            return "  ".repeat(depth) + (depth > 0 ? "\u2514 " : "") + name + "   " + state
                    + (reason == null ? "" : " \u2014 " + reason);
        }
    }

    private final MainViewModel main;
    private final UiTasks tasks;
    private final ReadOnlyObjectProperty<Workspace> workspace;
    private final ObservableList<Line> lines = FXCollections.observableArrayList();
    private final StackLogViewModel logs;
    /** Snapshots change every poll: one rebuild per hop to the FX thread, however many changed. */
    private final InvalidationListener rebuild = o -> rebuildSoon();
    private boolean rebuildScheduled;

    StackViewModel(MainViewModel main, UiTasks tasks, ReadOnlyObjectProperty<Workspace> workspace) {
        this.main = main;
        this.tasks = tasks;
        this.workspace = workspace;
        this.logs = new StackLogViewModel(tasks);
        workspace.addListener(rebuild);
        main.sessions().rows().forEach(r -> r.snapshotProperty().addListener(rebuild));
        main.sessions().rows().addListener((ListChangeListener<SessionRow>) c -> {
            while (c.next()) {
                c.getRemoved().forEach(r -> r.snapshotProperty().removeListener(rebuild));
                c.getAddedSubList().forEach(r -> r.snapshotProperty().addListener(rebuild));
            }
            rebuildSoon();
        });
    }

    private void rebuildSoon() {
        if (!rebuildScheduled) {
            rebuildScheduled = true;
            tasks.fx(() -> {
                rebuildScheduled = false;
                rebuild();
            });
        }
    }

    public ObservableList<Line> lines() {
        return lines;
    }

    /** The Logs tab: the stack's outputs merged. */
    public StackLogViewModel logs() {
        return logs;
    }

    /** Starts the workspace's autostart commands with their dependencies (or the named ones). */
    public void up(List<String> names) {
        Workspace ws = workspace.get();
        if (ws == null) {
            return;
        }
        Path file = ws.file();
        tasks.onFx(tasks.background(() -> main.engine().up(file, names)), (ids, e) -> {
            if (e != null) {
                main.warn("Up failed: " + rootMessage(e));
            } else {
                main.say("Up: " + ids.size() + " command" + (ids.size() == 1 ? "" : "s") + " of " + ws.displayName());
            }
        });
    }

    /** Stops what Up started from this workspace, dependants first. */
    public void down() {
        Workspace ws = workspace.get();
        if (ws == null) {
            return;
        }
        Path file = ws.file();
        tasks.onFx(tasks.background(() -> main.engine().down(file, List.of())), (stopped, e) -> {
            if (e != null) {
                main.warn("Down failed: " + rootMessage(e));
            } else {
                main.say("Down: stopped " + (stopped.isEmpty() ? "nothing" : String.join(", ", stopped)));
            }
        });
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && (t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException)) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    /** Whether the file uses the stack keys (depends_on, ready, restart, delay, groups): then Up runs it, and the view shows it. */
    public static boolean isStack(dev.runboard.workspace.WorkspaceFile file) {
        return file.groups() != null || file.commands().values().stream().anyMatch(c -> !c.dependencies().isEmpty()
                || c.ready() != null || c.delay() != null || !"never".equals(c.restartPolicy()));
    }

    /** The dependency view again: commands that wait for nothing at the top, each dependant under what it waits for. */
    void rebuild() {
        Workspace ws = workspace.get();
        List<Line> out = new ArrayList<>();
        if (ws != null && isStack(ws.content())) {
            Map<String, SessionSnapshot> latest = latestRuns(ws.file().toString());
            Map<String, List<String>> dependants = new HashMap<>();
            ws.commands().forEach((name, c) -> c.dependencies().keySet()
                    .forEach(d -> dependants.computeIfAbsent(d, k -> new ArrayList<>()).add(name)));
            ws.commands().forEach((name, c) -> {
                if (c.dependencies().isEmpty()) {
                    add(ws, name, 0, latest, dependants, out);
                }
            });
        }
        if (!out.equals(lines)) {
            lines.setAll(out);
        }
        refreshLogs(ws != null && isStack(ws.content()) ? ws : null);
    }

    /** The Logs tab reads what the stack's runs wrote since its last look (off the FX thread). */
    private void refreshLogs(Workspace ws) {
        List<SessionSnapshot> runs = new ArrayList<>();
        if (ws != null) {
            String name = ws.file().toString();
            for (SessionRow r : main.sessions().rows()) {
                SessionSnapshot s = r.snapshotProperty().get();
                if (s != null && s.stackName() != null && name.equals(s.stackFile())) {
                    runs.add(s);
                }
            }
        }
        logs.refresh(ws == null ? null : ws.file(), ws == null ? List.of() : ws.commands().keySet(), runs);
    }

    private void add(Workspace ws, String name, int depth, Map<String, SessionSnapshot> latest,
                     Map<String, List<String>> dependants, List<Line> out) {
        WorkspaceCommand c = ws.commands().get(name);
        SessionSnapshot s = latest.get(name);
        String state;
        String reason = null;
        if (s == null) {
            state = "not started";
        } else {
            boolean probed = s.ready() != null && s.status() == dev.runboard.session.SessionStatus.RUNNING;
            state = dev.runboard.ui.common.StatusLook.glyph(s.status()) + " "
                    + (probed ? (s.ready() ? "ready" : "starting") : s.status().word())
                    + (s.restarts() > 0 ? " (restart " + s.restarts() + ")" : "");
            if (s.status().isWaiting() || s.status() == dev.runboard.session.SessionStatus.SKIPPED) {
                reason = s.reason();
            }
        }
        if (depth > 0 && c != null && !c.dependencies().isEmpty()) {
            state = state + "  [" + String.join(", ", c.dependencies().entrySet().stream()
                    .map(e -> e.getKey() + ": " + e.getValue()).toList()) + "]";
        }
        out.add(new Line(name, depth, state, reason));
        if (depth < 8) { // the file has no cycles; the bound only keeps a broken one from looping
            for (String d : dependants.getOrDefault(name, List.of())) {
                add(ws, d, depth + 1, latest, dependants, out);
            }
        }
    }

    /** The newest run of each command started by Up (or runboard up) from this file. */
    private Map<String, SessionSnapshot> latestRuns(String file) {
        Map<String, SessionSnapshot> latest = new HashMap<>();
        for (SessionRow r : main.sessions().rows()) {
            SessionSnapshot s = r.snapshotProperty().get();
            if (s != null && s.stackName() != null && file.equals(s.stackFile())) {
                SessionSnapshot known = latest.get(s.stackName());
                if (known == null || s.startedAt().isAfter(known.startedAt())
                        || s.startedAt().equals(known.startedAt()) && s.sessionId().compareTo(known.sessionId()) > 0) {
                    latest.put(s.stackName(), s);
                }
            }
        }
        return latest;
    }
}
