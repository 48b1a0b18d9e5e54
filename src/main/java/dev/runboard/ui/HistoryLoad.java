package dev.runboard.ui;

import dev.runboard.store.DataDirs;
import dev.runboard.ui.common.UiTasks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javafx.application.Platform;

/**
 * The history, read after the window's first frame: until then, and while thousands of records
 * are parsed off the FX thread, the table says "Loading 1,000 sessions…"; then every row joins it
 * in one batch, through the one hand-off to the FX thread. Running sessions whose owner died bring
 * a supervisor to adopt them (the engine's load asks). Then the engine follows the data dir, so
 * sessions started elsewhere (the CLI, another window) appear within one poll period.
 */
final class HistoryLoad {
    private HistoryLoad() {
    }

    /**
     * Arranges the load; FX thread, before or after the window shows. {@code sessions} is how many
     * the history holds, about (the placeholder's number); {@code readHistory} reads every record
     * into the engine (off the FX thread), {@code follow} then starts following the data dir.
     */
    static void afterFirstFrame(MainWindow window, int sessions, UiTasks tasks, Runnable readHistory, Runnable follow,
                                StartupReport report) {
        if (sessions > 0) { // an empty data dir says "No sessions yet" from the first frame
            window.sessions().holdArrivals(sessions);
        }
        FirstFrame.then(window.stage().getScene(), window.controller().table(), () -> {
            report.mark("first_frame_ms");
            // The next runnable, not this one: the pulse that draws the first frame finishes first.
            tasks.fx(() -> load(window, tasks, readHistory, follow, report));
        });
        Platform.requestNextPulse();
    }

    private static void load(MainWindow window, UiTasks tasks, Runnable readHistory, Runnable follow, StartupReport report) {
        tasks.onFx(tasks.background(() -> {
            List<String> found = new ArrayList<>(dataDirProblem(window.model().engine().dataDir()).stream().toList());
            readHistory.run(); // the engine's warnings (unreadable records) reach the status bar through onWarning
            report.mark("history_read_ms");
            return found;
        }), (found, error) -> {
            report.timed("handoff_fx_cpu_ms", window.sessions()::releaseArrivals);
            if (error != null) {
                window.model().warn("could not read the history: " + error.getMessage());
            } else {
                found.forEach(window.model()::warn);
            }
            report.historyShown(window.stage().getScene(), window.controller().table());
            follow.run();
        });
    }

    /**
     * What the CLI says in one line about a data dir it cannot use (or made private), said in the
     * window's status bar instead; the window still opens, so the problem can be read.
     */
    private static Optional<String> dataDirProblem(Path dataDir) {
        try {
            return DataDirs.check(dataDir);
        } catch (dev.runboard.store.DataDirException e) {
            return Optional.of(e.getMessage());
        }
    }
}
