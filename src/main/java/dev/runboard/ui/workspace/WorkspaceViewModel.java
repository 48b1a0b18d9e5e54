package dev.runboard.ui.workspace;

import dev.runboard.session.KillReport;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.main.MainViewModel;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.workspace.CommandDiscovery;
import dev.runboard.workspace.DiscoveredCommand;
import dev.runboard.workspace.RecentWorkspaces;
import dev.runboard.workspace.Workspace;
import dev.runboard.workspace.WorkspaceCommand;
import dev.runboard.workspace.WorkspaceFile;
import dev.runboard.workspace.WorkspaceLoad;
import dev.runboard.workspace.WorkspaceWatcher;
import dev.runboard.workspace.WorkspaceYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;

/**
 * The open workspace behind the sidebar: its commands (the last good reading of
 * {@code runboard.yaml}), the parse error when the file on disk is broken, what discovery offers,
 * and which sessions were started from which command. Runs go through {@link MainViewModel}, so
 * each is an ordinary session in the table. FX thread only; the watcher hops over once per reload,
 * and starts and kills run in the background (through {@link MainViewModel} and {@link UiTasks}).
 */
public final class WorkspaceViewModel {
    private final MainViewModel main;
    private final UiTasks tasks;
    private final RecentWorkspaces recent;
    private final Duration debounce;
    private final ReadOnlyObjectWrapper<Workspace> workspace = new ReadOnlyObjectWrapper<>(this, "workspace");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ObservableList<CommandEntry> entries = FXCollections.observableArrayList();
    private final Map<String, CommandEntry> entryByName = new HashMap<>();
    private final ObservableList<DiscoveredCommand> discovered = FXCollections.observableArrayList();
    private final ObservableList<Path> recentList = FXCollections.observableArrayList();
    /** Session id → the command it ran; kept for the window's life, so rerun and the table keep the tag. */
    private final Map<String, RunLink> links = new HashMap<>();
    /** Counts the links made, so that what depends on {@link #links} is told. */
    private final javafx.beans.property.IntegerProperty linksMade = new javafx.beans.property.SimpleIntegerProperty();
    /** Spec → command: a session started again with the same spec (Rerun) belongs to the same command. */
    private final Map<SessionSpec, RunLink> linkBySpec = new HashMap<>();
    private final BooleanBinding open = workspace.isNotNull();
    private CommandDiscovery.Result lastDiscovery = CommandDiscovery.Result.NONE;
    private WorkspaceWatcher watcher;
    private final StackViewModel stack;

    public WorkspaceViewModel(MainViewModel main, UiTasks tasks, RecentWorkspaces recent, Duration debounce) {
        this.main = main;
        this.tasks = tasks;
        this.recent = recent;
        this.debounce = debounce;
        recentList.setAll(recent.list());
        this.stack = new StackViewModel(main, tasks, workspace.getReadOnlyProperty());
        main.sessions().rows().addListener((ListChangeListener<SessionRow>) c -> {
            while (c.next()) {
                c.getAddedSubList().forEach(this::linkIfKnown);
            }
        });
    }

    /** Up, Down and the dependency view of the open workspace. */
    public StackViewModel stack() {
        return stack;
    }

    /**
     * Opens a folder as the workspace: its runboard.yaml is read and its commands discovered off
     * the FX thread (a YAML parse and a folder scan), then shown; the future completes on the FX
     * thread once the sidebar shows it (and its autostart commands were asked to start).
     */
    public java.util.concurrent.CompletableFuture<Void> open(Path folder) {
        Path root = folder.toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            main.say("Cannot open " + root + " as a workspace: not a folder");
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }
        closeWatcher();
        workspace.set(null);
        return tasks.applyOnFx(tasks.background(() -> WorkspaceLoad.read(root)), (load, failure) -> {
            if (failure != null) {
                main.say("Cannot open " + root + " as a workspace: " + failure.getMessage());
                return null;
            }
            show(root, load);
            return null;
        });
    }

    /** The folder just read, on screen: its commands, a watcher for its file, the recent list, its autostarts. */
    private void show(Path root, WorkspaceLoad load) {
        apply(load);
        try {
            watcher = WorkspaceWatcher.start(root, debounce, l -> tasks.fx(() -> {
                if (watcher != null && watcher.root().equals(l.root())) {
                    apply(l);
                }
            }));
        } catch (IOException e) {
            main.say("Not watching " + root + " for changes: " + e.getMessage());
        }
        tasks.onFx(tasks.background(() -> recent.add(root)), (list, e) -> {
            if (e != null) {
                main.say("Could not remember " + root + " in the recent list: " + e.getMessage());
            } else {
                recentList.setAll(list);
            }
        });
        if (load.ok()) {
            List<String> auto = new ArrayList<>();
            load.resolved().commands().forEach((name, c) -> {
                if (c.autostarts()) {
                    auto.add(name);
                }
            });
            if (!auto.isEmpty()) {
                // As `up` does: in order, with their dependencies and group limits; what runs already is not started again.
                up(List.of(), false);
            }
            main.say("Opened workspace " + workspace.get().displayName());
        }
    }

    /** A new reading of the folder: a good one replaces the commands; a bad one only sets the error. */
    void apply(WorkspaceLoad load) {
        Workspace current = workspace.get();
        if (load.ok()) {
            workspace.set(load.workspace());
            error.set("");
        } else {
            error.set(load.error().getMessage());
            if (current == null) {
                workspace.set(new Workspace(load.root(), WorkspaceFile.EMPTY)); // show the folder and its error
            }
        }
        lastDiscovery = load.discovered();
        rebuild();
    }

    private void rebuild() {
        Workspace ws = workspace.get();
        List<CommandEntry> list = new ArrayList<>();
        Map<String, CommandEntry> keep = new HashMap<>();
        if (ws != null) {
            ws.groups().forEach((group, names) -> {
                if (!group.equals(Workspace.NO_GROUP)) {
                    list.add(CommandEntry.group(group));
                }
                for (String name : names) {
                    CommandEntry e = entryByName.get(name);
                    if (e == null) {
                        e = CommandEntry.command(name, ws.commands().get(name));
                    } else {
                        e.setCommand(ws.commands().get(name));
                    }
                    keep.put(name, e);
                    list.add(e);
                }
            });
        }
        entryByName.clear();
        entryByName.putAll(keep);
        entries.setAll(list);
        discovered.setAll(ws == null ? List.of() : lastDiscovery.commands().stream()
                .filter(d -> !alreadyIn(ws, d)).toList());
    }

    /** A discovered command is hidden once the workspace has one that runs the same thing in the same place. */
    private static boolean alreadyIn(Workspace ws, DiscoveredCommand d) {
        return ws.commands().values().stream().anyMatch(c -> c.displayCommand().equals(d.command().displayCommand())
                && Objects.equals(c.cwd(), d.command().cwd()));
    }

    /**
     * Starts one command; the future brings its row on the FX thread, or null when it could not
     * start (the reason is in the status bar).
     */
    public CompletableFuture<SessionRow> run(String name) {
        Workspace ws = workspace.get();
        if (ws == null || !ws.commands().containsKey(name)) {
            return CompletableFuture.completedFuture(null);
        }
        // The one start request, as `up NAME` (forced: a finished command runs again; a running one is not
        // started twice): what it depends on first, its group's limit, the workspace's tag on its record.
        return up(List.of(name), true).thenApply(rows -> rows.isEmpty() ? null : rows.get(rows.size() - 1));
    }

    /** "Run alone": the command by itself, without what it depends on (a plain start, tagged with its command). */
    public CompletableFuture<SessionRow> runAlone(String name) {
        Workspace ws = workspace.get();
        if (ws == null || !ws.commands().containsKey(name)) {
            return CompletableFuture.completedFuture(null);
        }
        SessionSpec spec = ws.spec(name);
        linkBySpec.put(spec, new RunLink(ws.root(), ws.displayName(), name));
        return main.start(spec);
    }

    /** Starts a group's commands as `up GROUP` does; the future brings the rows of its sessions. */
    public CompletableFuture<List<SessionRow>> runGroup(String group) {
        return up(List.of(group), true);
    }

    /** Starts every command of the file as `up` naming them all does. */
    public CompletableFuture<List<SessionRow>> runAll() {
        Workspace ws = workspace.get();
        return ws == null ? CompletableFuture.completedFuture(List.of()) : up(List.copyOf(ws.commands().keySet()), true);
    }

    /**
     * The supervisor's {@code up} for these names (none: the autostart commands), the same request as
     * the CLI's: the rows of the sessions it answers with, dependencies first, on the FX thread; a
     * refusal is said in the status bar. {@code force}: a named command that already ended runs again.
     */
    private CompletableFuture<List<SessionRow>> up(List<String> names, boolean force) {
        Workspace ws = workspace.get();
        if (ws == null) {
            return CompletableFuture.completedFuture(List.of());
        }
        java.nio.file.Path file = ws.file();
        return tasks.applyOnFx(tasks.background(() -> main.engine().up(file, names, force)), (ids, error) -> {
            if (error != null) {
                Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                main.warn("Cannot start: " + cause.getMessage());
                return List.of();
            }
            List<SessionRow> rows = new ArrayList<>();
            for (String id : ids) {
                SessionRow row = main.sessions().find(id);
                if (row == null) {
                    dev.runboard.session.SessionSnapshot first = main.engine().snapshot(id, false);
                    SessionSpec spec = main.engine().spec(id);
                    row = first == null || spec == null ? null : main.sessions().add(spec, first);
                }
                if (row != null) {
                    rows.add(row);
                }
            }
            main.say((names.size() == 1 ? "Started " + names.get(0) : "Up: " + rows.size() + " command" + (rows.size() == 1 ? "" : "s"))
                    + " of " + ws.displayName());
            return rows;
        });
    }

    /** Tree-kills every running session of this workspace; the status bar gets the outcome once all are done. */
    public CompletableFuture<List<KillReport>> stopAll() {
        Workspace ws = workspace.get();
        List<CompletableFuture<KillReport>> kills = new ArrayList<>();
        if (ws != null) {
            for (SessionRow row : List.copyOf(main.sessions().rows())) {
                RunLink link = links.get(row.id());
                // A waiting one is cancelled (ends killed without running), so nothing of the workspace starts later.
                if (link != null && link.root().equals(ws.root()) && (row.isRunning() || row.status().isWaiting())) {
                    kills.add(main.kill(row, Signal.TERM, row.spec().grace()));
                }
            }
        }
        if (kills.isEmpty()) {
            main.say("Nothing of " + (ws == null ? "the workspace" : ws.displayName()) + " is running");
            return CompletableFuture.completedFuture(List.of());
        }
        main.say("Stopping " + kills.size() + (kills.size() == 1 ? " session" : " sessions") + "\u2026");
        String name = ws.displayName();
        CompletableFuture<List<KillReport>> all = CompletableFuture.allOf(kills.toArray(CompletableFuture[]::new))
                .thenApply(v -> kills.stream().map(CompletableFuture::join).toList());
        return tasks.onFx(all, (reports, error) -> {
            if (error != null) {
                main.say("Could not stop all of " + name + ": " + error.getMessage());
            } else {
                int survivors = reports.stream().mapToInt(r -> r.survivors().size()).sum();
                main.say("Stopped " + reports.size() + " of " + name + ": "
                        + survivors + (survivors == 1 ? " survivor" : " survivors"));
            }
        });
    }

    /** Adds a discovered command to {@code runboard.yaml}; returns the name it got (renamed when taken). */
    public String importDiscovered(DiscoveredCommand d) {
        // What it depends on (process-compose's depends_on) comes along, first: the file must name every dependency.
        for (String dep : d.command().dependencies().keySet()) {
            Workspace ws = workspace.get();
            if (ws != null && !ws.commands().containsKey(dep)) {
                discovered.stream().filter(o -> o.source().equals(d.source()) && o.name().equals(dep)).findFirst()
                        .ifPresent(this::importDiscovered);
            }
        }
        String name = d.name().replaceAll("[:\\s]+", "-");
        String added = addCommand(name, d.command(), true);
        if (added != null && !d.dropped().isEmpty()) {
            main.say("Imported " + added + " from " + d.source() + "; not imported: " + String.join("; ", d.dropped()));
        }
        return added;
    }

    /** Saves a session from the table as a workspace command; the session keeps a link to it. */
    public String saveSession(SessionRow row, String name) {
        Workspace ws = workspace.get();
        if (ws == null || row == null || name == null || name.isBlank()) {
            return null;
        }
        WorkspaceCommand c = WorkspaceCommand.fromSpec(row.spec(), ws.root());
        String saved = addCommand(name.strip(), c, false);
        if (saved != null) {
            RunLink link = new RunLink(ws.root(), ws.displayName(), saved);
            link(row, link);
            linkBySpec.put(row.spec(), link);
            follow(row, link);
        }
        return saved;
    }

    /** A good name to offer when saving a session: its command's linked name, else the program's name. */
    public String suggestName(SessionRow row) {
        RunLink link = row == null ? null : links.get(row.id());
        if (link != null) {
            return link.command();
        }
        String cmd = row == null ? "" : row.commandProperty().get().strip();
        String first = cmd.isEmpty() ? "command" : cmd.split("\\s+")[0];
        String base = first.substring(first.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9_.-]", "");
        return base.isEmpty() ? "command" : base;
    }

    private String addCommand(String wanted, WorkspaceCommand c, boolean rename) {
        Workspace ws = workspace.get();
        if (ws == null) {
            return null;
        }
        if (!error.get().isEmpty()) {
            // Writing our last good copy would throw away the person's unsaved fix in progress.
            main.say("Fix " + WorkspaceYaml.FILE_NAME + " first: it does not parse");
            return null;
        }
        String name = rename ? ws.content().freeName(wanted) : wanted;
        WorkspaceFile next = ws.content().with(name, c);
        try {
            WorkspaceYaml.save(next, ws.file());
        } catch (IOException e) {
            main.say("Could not write " + ws.file() + ": " + e.getMessage());
            return null;
        }
        workspace.set(ws.withContent(next));
        rebuild();
        main.say("Saved " + name + " to " + ws.file().getFileName());
        return name;
    }

    private void linkIfKnown(SessionRow row) {
        RunLink link = linkBySpec.get(row.spec());
        String file = row.snapshot().stackFile();
        if (file != null && row.snapshot().stackName() != null) {
            // Its record names its command and file (up, the sidebar): the tag is the record's, whoever started it.
            java.nio.file.Path root = java.nio.file.Path.of(file).getParent();
            Workspace ws = workspace.get();
            String shown = ws != null && ws.root().equals(root) ? ws.displayName()
                    : root == null || root.getFileName() == null ? file : root.getFileName().toString();
            link = new RunLink(root, shown, row.snapshot().stackName());
            linkBySpec.putIfAbsent(row.spec(), link); // a Rerun of it (the same spec) belongs to the same command
        }
        if (link != null && !links.containsKey(row.id())) {
            link(row, link);
            follow(row, link);
        }
    }

    /** The command's entry shows the status of its latest run. */
    private void follow(SessionRow row, RunLink link) {
        Runnable update = () -> {
            Workspace ws = workspace.get();
            CommandEntry e = entryByName.get(link.command());
            if (ws != null && ws.root().equals(link.root()) && e != null && latestRunOf(link) == row) {
                e.setLastStatus(row.status());
            }
        };
        row.statusProperty().addListener((o, was, now) -> update.run());
        update.run();
    }

    private SessionRow latestRunOf(RunLink link) {
        SessionRow latest = null;
        for (SessionRow r : main.sessions().rows()) {
            if (link.equals(links.get(r.id())) && (latest == null || r.id().compareTo(latest.id()) > 0)) {
                latest = r;
            }
        }
        return latest;
    }

    private void link(SessionRow row, RunLink link) {
        links.put(row.id(), link);
        linksMade.set(linksMade.get() + 1);
    }

    /** Whether any row was started from a workspace command: the Workspace column has something to show. */
    public BooleanBinding anyLinked() {
        return javafx.beans.binding.Bindings.createBooleanBinding(
                () -> main.sessions().rows().stream().anyMatch(r -> links.containsKey(r.id())), main.sessions().rows(), linksMade);
    }

    /** The command a session was started from, or null. */
    public RunLink linkOf(SessionRow row) {
        return row == null ? null : links.get(row.id());
    }

    /**
     * Whether any session started from the open workspace runs now: Stop all has something to
     * stop. Re-read when the running count, the rows or the workspace change.
     */
    public BooleanBinding anyRunning() {
        return javafx.beans.binding.Bindings.createBooleanBinding(
                () -> runsOfOpenWorkspace().stream().anyMatch(SessionRow::isRunning),
                main.sessions().runningCountProperty(), main.sessions().rows(), workspace);
    }

    /** Rows started from this workspace's commands, in the table's order. */
    public List<SessionRow> runsOfOpenWorkspace() {
        Workspace ws = workspace.get();
        List<SessionRow> out = new ArrayList<>();
        for (SessionRow r : main.sessions().rows()) {
            RunLink l = links.get(r.id());
            if (ws != null && l != null && l.root().equals(ws.root())) {
                out.add(r);
            }
        }
        return out;
    }

    /** Closes the workspace (its sessions keep running and keep their tags). */
    public void closeWorkspace() {
        closeWatcher();
        workspace.set(null);
        error.set("");
        lastDiscovery = CommandDiscovery.Result.NONE;
        rebuild();
    }

    /** Stops watching (window closing). */
    public void close() {
        closeWatcher();
    }

    private void closeWatcher() {
        if (watcher != null) {
            watcher.close();
            watcher = null;
        }
    }

    public Map<String, List<String>> groups() {
        Workspace ws = workspace.get();
        return ws == null ? Map.of() : new LinkedHashMap<>(ws.groups());
    }

    public ReadOnlyObjectProperty<Workspace> workspaceProperty() {
        return workspace.getReadOnlyProperty();
    }

    public Workspace workspace() {
        return workspace.get();
    }

    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    public ObservableList<CommandEntry> entries() {
        return entries;
    }

    public ObservableList<DiscoveredCommand> discovered() {
        return discovered;
    }

    public ObservableList<Path> recent() {
        return recentList;
    }

    public BooleanBinding openProperty() {
        return open;
    }

    public MainViewModel main() {
        return main;
    }
}
