package dev.runboard.ui;

import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.common.FxDesktopBridge;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.common.UiSettings;
import dev.runboard.process.EngineConfig;
import dev.runboard.process.LinuxProcesses;
import dev.runboard.engine.SupervisorClient;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.store.SettingsStore;
import dev.runboard.store.StoreException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.application.Application;
import javafx.stage.Stage;

/** The desktop app: one window over one engine in the user's data dir. */
public final class RunboardApp extends Application {
    private SupervisedSessions engine;
    private MainWindow window;
    /** Where a second "runboard open" reaches this window (null when another window holds it, or none could be made). */
    private dev.runboard.engine.WindowDoor door;
    private UiSettings settings;

    public static void launchWindow(String[] args) {
        WindowPreload.begin(); // the settings, the history's size and the heap policy, while the toolkit starts
        Application.launch(RunboardApp.class, args);
    }

    /** Before start(), on the launcher thread, with the toolkit up: what can be made beside the window. */
    @Override
    public void init() {
        dev.runboard.ui.common.Icons.warmUp();
    }

    @Override
    public void start(Stage stage) {
        StartupReport report = StartupReport.fromEnvironment(LinuxProcesses::millisSinceStart);
        report.mark("fx_start_ms");
        WindowPreload.Read read = WindowPreload.get();
        Path dataDir = read.dataDir();
        SettingsStore settingsStore = new SettingsStore(dataDir);
        SettingsStore.Loaded saved = read.settings();
        settings = UiSettings.fromEnvironment(saved.settings());
        // The window is a client: the data dir's supervisor owns every session (and prunes by the
        // settings' retention); the window reads records and sends it commands.
        engine = new SupervisedSessions(EngineConfig.forDataDir(dataDir), SupervisorClient.forDataDir(dataDir));
        List<String> warnings = new ArrayList<>();
        saved.warning().ifPresent(warnings::add);
        Theme theme = Theme.fromEnvironment(saved.settings().theme());
        UiTasks tasks = new FxUiTasks();
        window = MainWindow.create(stage, engine, settings, new FxDesktopBridge(getHostServices()), theme, tasks);
        report.mark("window_built_ms");
        // The settings file is written (and synced) off the FX thread; only a failure comes back to it.
        theme.darkProperty().addListener((o, was, dark) -> tasks.onFx(tasks.background(() -> {
            saveTheme(settingsStore, dark);
            return null;
        }), (done, error) -> {
            if (error != null) {
                window.model().warn(error.getMessage());
            }
        }));
        engine.onWarning(w -> tasks.fx(() -> window.model().warn(w)));
        warnings.forEach(window.model()::warn);
        HistoryLoad.afterFirstFrame(window, read.sessions(), tasks, engine::load, () -> engine.follow(settings.pollPeriod()), report);
        window.show();
        // A second "runboard open DIR" (or a bare runboard) while this window is open comes here instead
        // of opening a second window over the same sessions.
        try {
            door = dev.runboard.engine.WindowDoor.open(dataDir, folder -> tasks.fx(() -> {
                folder.ifPresent(window.workspaces()::open);
                stage.setIconified(false);
                stage.toFront();
                stage.requestFocus();
            })).orElse(null);
        } catch (java.io.IOException e) {
            window.model().warn("A second runboard open will start a second window: " + e.getMessage());
        }
        // "runboard open DIR" (see Launcher): the window opens on that workspace.
        java.util.List<String> raw = getParameters().getRaw();
        if (raw.size() == 2 && raw.get(0).equals("open")) {
            window.workspaces().open(java.nio.file.Path.of(raw.get(1)));
        }
        // RUNBOARD_VIEW=FILE opens the viewer on FILE at start (screenshots, quick looks);
        // RUNBOARD_VIEW_FIND=REGEX also searches it.
        String view = System.getenv("RUNBOARD_VIEW");
        if (view != null && !view.isBlank()) {
            new dev.runboard.ui.viewer.ArtifactViewer(theme, new FxDesktopBridge(getHostServices()), tasks)
                    .open(stage, java.nio.file.Path.of(view), () -> false, System.getenv("RUNBOARD_VIEW_FIND"));
        }
        if (settings.demo()) {
            // Demo sessions must not outlive the demo, even when the app is ended by a signal.
            SupervisedSessions demoEngine = engine;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> demoEngine.killAll(Duration.ofMillis(300)), "runboard-demo-cleanup"));
            DemoSessions.start(window.model());
        }
    }

    private static void saveTheme(SettingsStore store, boolean dark) throws StoreException {
        store.save(store.load().settings().withTheme(dark ? "dark" : "light"));
    }

    @Override
    public void stop() {
        if (door != null) {
            door.close();
        }
        if (window != null) {
            window.close();
        }
        if (engine != null) {
            engine.close();
        }
    }
}
