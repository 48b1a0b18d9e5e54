package dev.runboard.ui;

import dev.runboard.ui.common.Theme;
import dev.runboard.ui.common.UiSettings;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import javafx.application.Platform;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real main window on a real engine, opened and closed as every window test does. TestFX only
 * finds a test class's own {@code @Start} method, so each test keeps a two-line {@code @Start} and
 * {@code @AfterEach} that call this.
 */
public final class WindowFixture {
    private final SessionService engine;
    private final MainWindow window;

    private WindowFixture(SessionService engine, MainWindow window) {
        this.engine = engine;
        this.window = window;
    }

    /** A fresh engine on {@code dataDir} and the window on it (light theme, no desktop notifications). */
    public static WindowFixture open(Stage stage, Path dataDir) {
        return open(stage, SessionEngine.forDataDir(dataDir));
    }

    /** The window on an engine the test prepared (history loaded, say). */
    public static WindowFixture open(Stage stage, SessionService engine) {
        return open(stage, engine, new Theme(false));
    }

    /** The window on a fresh engine with a theme the test holds (to switch to dark; switch back before closing). */
    public static WindowFixture open(Stage stage, Path dataDir, Theme theme) {
        return open(stage, SessionEngine.forDataDir(dataDir), theme);
    }

    private static WindowFixture open(Stage stage, SessionService engine, Theme theme) {
        Platform.setImplicitExit(false);
        MainWindow window = MainWindow.create(stage, engine, new UiSettings(UiSettings.DEFAULT_POLL, false, false),
                new RecordingDesktop(), theme);
        window.show();
        return new WindowFixture(engine, window);
    }

    /** The engine the window runs on; the in-process owner unless the test opened it on a supervisor's client. */
    public SessionEngine engine() {
        return (SessionEngine) engine;
    }

    public MainWindow window() {
        return window;
    }

    /** Kills every session the test started, closes the window and any dialog or viewer it opened, then the engine. */
    public void close() throws Exception {
        engine.killAll(Duration.ofSeconds(1));
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> {
            window.close();
            // Dialogs and viewers of this test must not linger into the next one.
            new ArrayList<>(Window.getWindows()).stream().filter(w -> w != window.stage()).forEach(Window::hide);
        });
        engine.close();
    }
}
