package dev.runboard.ui;

import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.common.DesktopBridge;
import dev.runboard.ui.common.LateView;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.common.UiSettings;
import dev.runboard.session.SessionService;
import dev.runboard.ui.detail.DetailController;
import dev.runboard.ui.detail.DetailViewModel;
import dev.runboard.ui.insight.SessionControl;
import dev.runboard.ui.launch.NewSessionDialogs;
import dev.runboard.ui.main.MainViewModel;
import dev.runboard.ui.window.MainController;
import dev.runboard.ui.notify.DesktopNotifier;
import dev.runboard.ui.notify.EndNotifier;
import dev.runboard.ui.notify.RuleNotifier;
import dev.runboard.ui.notify.ToastStack;
import dev.runboard.ui.search.RunSearchWindow;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.ui.runs.RunsUi;
import dev.runboard.ui.sessions.SessionsViewModel;
import dev.runboard.ui.viewer.ArtifactViewer;
import dev.runboard.ui.workspace.WorkspaceController;
import dev.runboard.ui.workspace.WorkspaceViewModel;
import dev.runboard.workspace.RecentWorkspaces;
import dev.runboard.workspace.WorkspaceWatcher;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.image.Image;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import javafx.util.Callback;

/**
 * The window's composition root: makes the view-models, hands them to controllers through the
 * FXML controller factory, and owns the poller's life. Tests build it on their own stage and engine.
 */
public final class MainWindow {
    private static final int[] ICON_SIZES = {16, 32, 48, 64, 128, 256};
    public static final int MIN_WIDTH = 1024;
    public static final int MIN_HEIGHT = 700;
    private final Stage stage;
    private final SessionsViewModel sessions;
    private final MainViewModel model;
    private final MainController controller;
    private final EndNotifier notifier;
    private final WorkspaceViewModel workspaces;
    private final WindowMemory memory;
    private final UiTasks tasks;

    private MainWindow(Stage stage, SessionsViewModel sessions, MainViewModel model, MainController controller,
                       EndNotifier notifier, WorkspaceViewModel workspaces, WindowMemory memory, UiTasks tasks) {
        this.tasks = tasks;
        this.memory = memory;
        this.workspaces = workspaces;
        this.stage = stage;
        this.sessions = sessions;
        this.model = model;
        this.controller = controller;
        this.notifier = notifier;
    }

    /** Builds the window on {@code stage} (FX thread) with its own {@link FxUiTasks}; call {@link #show()} to open it and start polling. */
    public static MainWindow create(Stage stage, SessionService engine, UiSettings settings, DesktopBridge desktop, Theme theme) {
        return create(stage, engine, settings, desktop, theme, new FxUiTasks());
    }

    /** As above, every hand-off between the FX thread and the engine going through {@code tasks}. */
    public static MainWindow create(Stage stage, SessionService engine, UiSettings settings, DesktopBridge desktop, Theme theme,
                                    UiTasks tasks) {
        theme.useBeforeControls();
        SessionsViewModel sessions = new SessionsViewModel(Clock.systemUTC(),
                javafx.util.Duration.millis(settings.pollPeriod().toMillis()), tasks);
        MainViewModel model = new MainViewModel(engine, sessions, desktop, tasks);
        dev.runboard.ui.common.IdleMemory.install(sessions.runningCountProperty(), tasks);
        // Recent workspaces live beside the engine's own data (tests give the engine a temp dir).
        WorkspaceViewModel workspaces = new WorkspaceViewModel(model, tasks,
                RecentWorkspaces.inDataDir(engine.dataDir().toAbsolutePath()),
                WorkspaceWatcher.DEFAULT_DEBOUNCE);
        DetailViewModel detail = new DetailViewModel();
        ArtifactViewer viewer = new ArtifactViewer(theme, desktop, tasks).withRemoteOutputs(remoteOutputs(engine.dataDir()));
        SessionControl control = new SessionControl(engine, tasks, model::say);
        dev.runboard.ui.main.SelectionActions selection = new dev.runboard.ui.main.SelectionActions(model, control);
        // A fresh form reads the settings as they are now (a small file), so Preferences and 'runboard config set' apply at once.
        dev.runboard.store.SettingsStore settingsStore = new dev.runboard.store.SettingsStore(engine.dataDir());
        NewSessionDialogs dialogs = new NewSessionDialogs(theme, tasks, Path.of("").toAbsolutePath(),
                () -> dev.runboard.ui.launch.SessionDefaults.of(settingsStore.load().settings()));
        // The Workspace menu is in the first frame; the sidebar it belongs to is loaded when a workspace opens.
        WorkspaceController workspaceController = new WorkspaceController(workspaces);
        Callback<Class<?>, Object> controllers = type -> {
            if (type == WorkspaceController.class) {
                return workspaceController;
            }
            if (type == DetailController.class) {
                return new DetailController(detail, model, viewer, control, tasks);
            }
            throw new IllegalArgumentException("no controller known for " + type);
        };
        LateView<DetailController> detailView = new LateView<>(
                MainWindow.class.getResource("/dev/runboard/ui/detail/DetailView.fxml"), controllers);
        LateView<WorkspaceController> sidebarView = new LateView<>(
                MainWindow.class.getResource("/dev/runboard/ui/workspace/WorkspaceSidebar.fxml"), controllers);
        MainController controller = new MainController(model, selection, dialogs, theme, tasks, detailView, workspaceController,
                sidebarView);
        Parent root = controller.build();
        ToastStack toasts = new ToastStack(stage);
        model.removals().setUndoOffer(toasts::offerUndo);
        WindowSizing size = WindowSizing.on(javafx.stage.Screen.getPrimary().getVisualBounds());
        Scene scene = new Scene(new StackPane(root, toasts.layer()), size.width(), size.height());
        theme.register(scene);
        stage.setScene(scene);
        RunsUi.install(controller.table(), controller.toolBar(), controller.statusChoice(), sessions, model.selectedProperty());
        // A Progress column with nothing to show steps aside (issue 47); the first estimate brings it back.
        controller.table().getColumns().stream().filter(c -> "progressColumn".equals(c.getId())).findFirst()
                .ifPresent(c -> controller.columnChoice().showOnlyWhen(c, sessions.estimatingProperty()));
        dev.runboard.ui.sessions.SlurmColumn.installWhenNeeded(controller.table(), sessions.rows());
        detailView.whenLoaded((view, c) -> c.sideTabs().getTabs().add(RunsUi.historyTab(engine, tasks, model.selectedProperty())));
        workspaces.openProperty().subscribe(open -> { // at once, then at every change
            if (open) {
                sidebarView.load();
            }
        });
        stage.setTitle("runboard");
        stage.setMinWidth(size.minWidth());
        stage.setMinHeight(size.minHeight());
        // Six PNGs decoded (~30 ms) off the FX thread: the window manager shows the icon a moment later.
        tasks.onFx(tasks.background(MainWindow::loadIcons), (icons, error) -> {
            if (icons != null) {
                stage.getIcons().setAll(icons);
            }
        });

        DesktopNotifier desktopNotifier = DesktopNotifier.fromPath(settings.desktopNotifications());
        EndNotifier notifier = new EndNotifier(stage, toasts, row -> model.selectedProperty().set(row), desktopNotifier);
        sessions.onSessionEnded(notifier::sessionEnded);
        RuleNotifier rules = new RuleNotifier(toasts, desktopNotifier::notify, row -> model.selectedProperty().set(row),
                Clock.systemUTC(), RuleNotifier.DEFAULT_QUIET);
        sessions.onNewEvents(rules::newEvents);
        sessions.attach(engine);
        RunSearchWindow search = new RunSearchWindow(theme, tasks, viewer,
                () -> sessions.rows().stream().map(SessionRow::snapshot).toList());
        controller.setSearchAllRuns(() -> search.show(stage));
        // Edit → Preferences… edits the settings beside the engine's data (tests give it a temp dir).
        dev.runboard.ui.prefs.PreferencesViewModel prefs = new dev.runboard.ui.prefs.PreferencesViewModel(
                settingsStore, tasks, model::warn);
        dev.runboard.ui.prefs.PreferencesMenu.install(scene, () -> dev.runboard.ui.prefs.PreferencesDialog.open(stage, prefs, theme));
        WindowMemory memory = new WindowMemory(stage, engine.dataDir().toAbsolutePath(), tasks,
                java.util.Map.of("main", controller.mainSplit()), java.util.Map.of("sidebar", controller.sidebarPosition()),
                controller.table(), controller.columnChoice().hiddenIds());
        memory.restore();
        detailView.whenLoaded((view, c) -> memory.addSplit("detail", c.split()));
        stage.setOnCloseRequest(e -> {
            if (controller.confirmClose(memory.state().askBeforeQuit(), () -> memory.setAskBeforeQuit(false))) {
                memory.saveAndWait();
            } else {
                e.consume();
            }
        });
        return new MainWindow(stage, sessions, model, controller, notifier, workspaces, memory, tasks);
    }

    /** The app icon from the classpath, when the icon resources exist (they are optional). */
    static java.util.List<Image> loadIcons() {
        java.util.List<Image> icons = new java.util.ArrayList<>();
        for (int size : ICON_SIZES) {
            try (InputStream in = MainWindow.class.getResourceAsStream("/dev/runboard/icons/runboard-" + size + ".png")) {
                if (in != null) {
                    icons.add(new Image(in));
                }
            } catch (IOException ignored) {
                // a missing or unreadable icon leaves the default one
            }
        }
        return icons;
    }

    /**
     * Opens the window and starts polling. The detail pane loads after the first frame, or after the
     * history's rows while a history loads (HistoryLoad, arranged by the caller before this), or at the
     * first selection: see DetailAfterFirstFrame.
     */
    public void show() {
        DetailAfterFirstFrame.install(stage.getScene(), controller.mainSplit(), controller.detail(), model.selectedProperty(),
                sessions.loadingProperty(), tasks);
        stage.show();
        sessions.startPolling();
        controller.focusTable();
    }

    /** Stops polling and notifications (FX thread). Sessions keep running: they outlive the window by design. */
    public void close() {
        model.removals().commitAll();
        memory.close();
        sessions.stopPolling();
        notifier.close();
        workspaces.close();
    }

    /** The remembered window state (size, splits, columns, whether to ask before quitting). */
    public WindowMemory memory() {
        return memory;
    }

    public Stage stage() {
        return stage;
    }

    public SessionsViewModel sessions() {
        return sessions;
    }

    public MainViewModel model() {
        return model;
    }

    /** The workspace sidebar's model: {@code workspaces().open(dir)} opens a folder as the workspace. */
    public WorkspaceViewModel workspaces() {
        return workspaces;
    }

    public MainController controller() {
        return controller;
    }

    /**
     * A remote session's output read from its host over the same ssh master as its supervisor's (one
     * per data dir), opened on the viewer's worker when it first reads.
     */
    private static java.util.function.BiFunction<String, String, dev.runboard.artifact.ByteSource> remoteOutputs(Path dataDir) {
        java.util.concurrent.atomic.AtomicReference<dev.runboard.remote.SshSessions> ssh = new java.util.concurrent.atomic.AtomicReference<>();
        return (host, id) -> new dev.runboard.artifact.DeferredBytes(() -> {
            synchronized (ssh) {
                if (ssh.get() == null) {
                    ssh.set(dev.runboard.remote.SshSessions.forDataDir(dataDir));
                }
            }
            return ssh.get().output(host, id);
        });
    }
}
