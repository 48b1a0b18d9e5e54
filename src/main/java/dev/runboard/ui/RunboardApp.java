package dev.runboard.ui;

import dev.runboard.process.SessionEngine;
import dev.runboard.store.DataDirs;
import java.time.Duration;
import javafx.application.Application;
import javafx.stage.Stage;

/** The desktop app: one window over one engine in the user's data dir. */
public final class RunboardApp extends Application {
    private SessionEngine engine;
    private MainWindow window;
    private UiSettings settings;

    public static void launchWindow(String[] args) {
        Application.launch(RunboardApp.class, args);
    }

    @Override
    public void start(Stage stage) {
        settings = UiSettings.fromEnvironment();
        engine = SessionEngine.forDataDir(DataDirs.resolve(null));
        window = MainWindow.create(stage, engine, settings, new FxDesktopBridge(getHostServices()), Theme.fromEnvironment());
        window.show();
        // "runboard open DIR" (see Launcher): the window opens on that workspace.
        java.util.List<String> raw = getParameters().getRaw();
        if (raw.size() == 2 && raw.get(0).equals("open")) {
            window.workspaces().open(java.nio.file.Path.of(raw.get(1)));
        }
        if (settings.demo()) {
            // Demo sessions must not outlive the demo, even when the app is ended by a signal.
            SessionEngine demoEngine = engine;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> demoEngine.killAll(Duration.ofMillis(300)), "runboard-demo-cleanup"));
            DemoSessions.start(window.model());
        }
    }

    @Override
    public void stop() {
        if (window != null) {
            window.close();
        }
        if (engine != null) {
            engine.close();
        }
    }
}
