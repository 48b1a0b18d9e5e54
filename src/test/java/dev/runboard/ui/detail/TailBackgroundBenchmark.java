package dev.runboard.ui.detail;

import static dev.runboard.ui.FxReads.fx;

import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.PulseGaps;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * What painting ANSI backgrounds costs the tail: the window's pulse gaps while a selected session
 * floods lines with text colours only, then the same lines with a background on every run, with
 * the tail full (the preview's last 64 KiB: about 800 of these lines, of an output of millions). Run by hand (not a *Test):
 * {@code ./mvnw -o -q test -Dtest=TailBackgroundBenchmark}; prints one line per case.
 */
@ExtendWith(ApplicationExtension.class)
class TailBackgroundBenchmark {
    @TempDir
    Path dataDir;
    private WindowFixture fixture;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir);
        window = fixture.window();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void pulseGapsWithAndWithoutBackgrounds(FxRobot robot) throws Exception {
        String plain = "yes $'\\e[32mok\\e[0m building \\e[33mmodule\\e[0m with a fairly \\e[1mlong\\e[0m line of output'";
        String filled = "yes $'\\e[42;97m ok \\e[0m building \\e[43;30mmodule\\e[0m with a fairly \\e[7mlong\\e[0m line of output'";
        for (int round = 0; round < 2; round++) {
            measure(robot, "text colours", plain);
            measure(robot, "backgrounds ", filled);
        }
    }

    private void measure(FxRobot robot, String name, String command) throws Exception {
        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell(command + " | head -c 8G")
                .cwd(dataDir).build()));
        robot.interact(() -> window.model().selectedProperty().set(row));
        @SuppressWarnings("unchecked")
        ListView<Object> tail = (ListView<Object>) robot.lookup("#outputList").query();
        Poll.waitFor(30, TimeUnit.SECONDS, () -> fx(robot, () -> tail.getItems().size() >= 500));
        PulseGaps gaps = new PulseGaps();
        robot.interact(gaps::start);
        Poll.waitFor(60, TimeUnit.SECONDS, () -> gaps.count() >= 300); // ~5 s of pulses
        robot.interact(gaps::stop);
        System.out.printf("tail %s: %d pulses, gap p50 %.1f ms p99 %.1f ms max %.1f ms%n",
                name, gaps.count(), gaps.percentile(50), gaps.percentile(99), gaps.max());
        if (fx(robot, row::isRunning)) {
            FxReads.await(robot, () -> window.model().kill(row, dev.runboard.session.Signal.KILL, java.time.Duration.ZERO));
        }
    }
}
