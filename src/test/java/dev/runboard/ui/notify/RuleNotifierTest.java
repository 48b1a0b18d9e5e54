package dev.runboard.ui.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.Session;
import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionSpec;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** A flood of NOTIFY events is one toast and one desktop notification per rule per quiet period. */
@ExtendWith(ApplicationExtension.class)
class RuleNotifierTest {
    private Stage stage;

    @Start
    void start(Stage primary) {
        // A stage of its own: the primary stage is shared with later window tests and keeps its size.
        stage = new Stage();
        stage.setScene(new Scene(new StackPane(), 400, 300));
        stage.show();
    }

    @Test
    void ratesLimitsPerRuleAndSession(FxRobot robot) {
        Instant[] now = {Instant.parse("2026-01-01T00:00:00Z")};
        Clock clock = new Clock() {
            @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
            @Override public Clock withZone(java.time.ZoneId zone) { return this; }
            @Override public Instant instant() { return now[0]; }
        };
        List<String> desktop = new ArrayList<>();
        robot.interact(() -> {
            ToastStack toasts = new ToastStack(stage);
            RuleNotifier notifier = new RuleNotifier(toasts, (title, body) -> desktop.add(body), r -> { }, clock,
                    Duration.ofSeconds(10));
            Session session = new Session("s1", SessionSpec.shell("echo hi").cwd(Path.of("/tmp")).build(), null, clock);
            SessionRow row = new SessionRow(session.spec(), session.snapshot());
            // A match from before the window opened is history, not news (Facts lists it).
            notifier.newEvents(row, List.of(notify(0, "old", now[0].minus(Duration.ofMinutes(18)))));
            assertEquals(List.of(), desktop, "an old match does not toast in a new window");
            assertEquals(0, toasts.shown().size());
            notifier.newEvents(row, List.of(notify(1, "disk"), notify(2, "disk"), notify(3, "net"),
                    new SessionInsight.Event(4, now[0], SessionInsight.Kind.HANG, "quiet")));
            assertEquals(List.of("/disk/ matched", "/net/ matched"), desktop);
            now[0] = now[0].plusSeconds(5);
            notifier.newEvents(row, List.of(notify(5, "disk")));
            assertEquals(2, desktop.size(), "still within the quiet period");
            now[0] = now[0].plusSeconds(6);
            notifier.newEvents(row, List.of(notify(6, "disk")));
            assertEquals(3, desktop.size(), "the quiet period is over");
            assertTrue(toasts.shown().size() <= 3, "the stack keeps at most three toasts");
            toasts.close();
            stage.hide();
        });
    }

    private static SessionInsight.Event notify(long seq, String rule) {
        return notify(seq, rule, null);
    }

    private static SessionInsight.Event notify(long seq, String rule, Instant at) {
        return new SessionInsight.Event(seq, at, SessionInsight.Kind.NOTIFY, "/" + rule + "/ matched", rule);
    }
}
