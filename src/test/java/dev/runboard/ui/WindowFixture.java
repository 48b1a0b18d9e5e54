package dev.runboard.ui;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionService;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.common.UiSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import javafx.application.Platform;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real main window on a real engine, opened and closed as every window test does. TestFX only
 * finds a test class's own {@code @Start} method, so each test keeps a two-line {@code @Start} and
 * {@code @AfterEach} that call this.
 */
public final class WindowFixture {
    private final SessionService engine;
    private final MainWindow window;
    /** The data dir's supervisor when the window is its client, as the app runs it; null for an in-process engine. */
    private dev.runboard.engine.SupervisorFixture supervisor;
    private boolean closed;

    private WindowFixture(SessionService engine, MainWindow window) {
        this.engine = engine;
        this.window = window;
    }

    /**
     * The window as the app runs it: a client of the data dir's supervisor (started on demand), which
     * carries out its starts, {@code up}s and kills. Closing stops the supervisor.
     */
    public static WindowFixture supervised(Stage stage, Path dataDir) {
        dev.runboard.engine.SupervisorFixture supervisor = new dev.runboard.engine.SupervisorFixture(dataDir);
        dev.runboard.process.SupervisedSessions view = new dev.runboard.process.SupervisedSessions(
                dev.runboard.process.EngineConfig.forDataDir(dataDir), supervisor.client());
        view.load();
        view.follow(Duration.ofMillis(200));
        WindowFixture fixture = open(stage, view);
        fixture.supervisor = supervisor;
        return fixture;
    }

    /** The supervisor of a {@link #supervised} window. */
    public dev.runboard.engine.SupervisorFixture supervisor() {
        return supervisor;
    }

    /** The sessions the window shows, as the window's engine (or client) holds them. */
    public SessionService service() {
        return engine;
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
        // TestFX hands every test in a JVM the same primary stage, and a stage whose size was once set keeps it
        // through a new scene: a test after one that shrank the window to its minimum opened at 1024x700. Each
        // test gets the size a new window opens at (a remembered size, on a reopen, still wins: it is set later).
        WindowSizing fresh = WindowSizing.on(javafx.stage.Screen.getPrimary().getVisualBounds());
        stage.setWidth(fresh.width());
        stage.setHeight(fresh.height());
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

    /**
     * Presses a button of a form that has just changed (an error shown or cleared): fires it as a click on it
     * would. A mouse click aims where the button is when the click begins, and the form's relayout comes at a
     * later pulse: on a loaded machine, 1.2 s after the host's error was showing, the dialog grew 16 px and
     * Launch moved 60 px right (its bounds logged every 50 ms, three busy loops beside). A click aimed before
     * that lands beside the button: twice the dialog stayed open 60-90 s with its first error still shown,
     * which a press of Launch clears at once. What these steps test is what the press does.
     */
    public static void pressAfterChange(FxRobot robot, String query) {
        pressAfterChange(robot, () -> robot.lookup(query).queryAs(javafx.scene.control.ButtonBase.class));
    }

    /** As {@link #pressAfterChange(FxRobot, String)}, for a button found on the FX thread (a dialog pane's). */
    public static void pressAfterChange(FxRobot robot, java.util.function.Supplier<javafx.scene.control.ButtonBase> button) {
        robot.interact(() -> button.get().fire());
    }

    /**
     * Replaces a text field's text as typing over it does: focused, its text selected, then each character
     * put in place of the selection (what a key typed into a field does). Not a double click: a field below
     * one whose error has just appeared moves at a later pulse (see {@link #pressAfterChange}), and a click
     * aimed before that lands on the field above (PreferencesWindowTest's "soon" went elsewhere under load).
     * Not TestFX's {@code write} either: it types into the first window that says it is focused, and on
     * Monocle the main window and an open dialog both do.
     */
    public static void retype(FxRobot robot, String query, String text) {
        robot.interact(() -> {
            javafx.scene.control.TextInputControl field = robot.lookup(query).queryAs(javafx.scene.control.TextInputControl.class);
            field.requestFocus();
            field.selectAll();
            text.codePoints().forEach(c -> field.replaceSelection(Character.toString(c)));
        });
    }

    /** Sizes the window to its minimum, 1024x700: where issue 47 found labels cut to "...". */
    public void toSmallestSize(FxRobot robot) {
        robot.interact(() -> {
            window.stage().setWidth(MainWindow.MIN_WIDTH);
            window.stage().setHeight(MainWindow.MIN_HEIGHT);
        });
    }

    /**
     * Closes the window as a person does, with its close button: it saves what it remembers (size,
     * splits, columns) as it goes. The fixture still needs {@link #close()} or {@link #reopen}.
     */
    public void closeByItsButton(FxRobot robot) {
        Stage stage = window.stage();
        robot.interact(() -> stage.fireEvent(new WindowEvent(stage, WindowEvent.WINDOW_CLOSE_REQUEST)));
    }

    /** Ends this fixture and opens the window again, on a new stage and engine over the same data dir. */
    public WindowFixture reopen(FxRobot robot, Path dataDir) throws Exception {
        close();
        return FxReads.fx(robot, () -> open(new Stage(), dataDir));
    }

    /**
     * Kills every session the test started, closes the window and any dialog or viewer it opened, then the
     * engine; once (a fixture that {@link #reopen}ed is already closed).
     */
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        engine.killAll(Duration.ofSeconds(1));
        WaitForAsyncUtils.waitForAsyncFx(5_000, () -> {
            window.close();
            // Dialogs and viewers of this test must not linger into the next one.
            new ArrayList<>(Window.getWindows()).stream().filter(w -> w != window.stage()).forEach(Window::hide);
        });
        engine.close();
        if (supervisor != null) {
            supervisor.close();
        }
    }
}
