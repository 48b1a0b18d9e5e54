package dev.runboard.ui;

import dev.runboard.testing.Poll;
import dev.runboard.ui.common.UiSettings;
import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.cli.RunboardCli;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.ui.sessions.SessionRow;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The window over a store it shares with the CLI: history on open, CLI starts and kills showing up live. */
@ExtendWith(ApplicationExtension.class)
class HistoryWindowTest {
    private static final long WAIT_S = 20;

    @TempDir
    static Path dataDir;

    private WindowFixture fixture;
    private SessionEngine engine;
    private MainWindow window;

    @Start
    void start(Stage stage) throws Exception {
        // A past runboard left two finished sessions behind.
        try (SessionEngine earlier = SessionEngine.forDataDir(dataDir)) {
            for (String cmd : new String[] {"echo from yesterday", "exit 9"}) {
                CompletableFuture<Object> ended = new CompletableFuture<>();
                earlier.start(SessionSpec.shell(cmd).cwd(dataDir).build()).addListener(ended::complete);
                ended.get(WAIT_S, TimeUnit.SECONDS);
            }
        }
        engine = SessionEngine.forDataDir(dataDir);
        engine.loadHistory();
        fixture = WindowFixture.open(stage, engine);
        window = fixture.window();
        engine.watchStore(UiSettings.DEFAULT_POLL);
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void pastSessionsCliStartsAndCliKillsShowInTheWindow(FxRobot robot) throws Exception {
        assertEquals(2, fx(robot, () -> window.sessions().rows().size()), "the window opens with its history");
        SessionRow failed = fx(robot, () -> window.sessions().rows().stream()
                .filter(r -> r.commandProperty().get().equals("exit 9")).findFirst().orElseThrow());
        assertEquals(SessionStatus.FAILED, failed.status());
        assertEquals("9", fx(robot, () -> failed.exitProperty().get()));

        String id = cli("start", "--shell", "/bin/sh", "--", "echo from the cli; sleep 300").strip();
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().find(id)) != null);
        SessionRow row = fx(robot, () -> window.sessions().find(id));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> "from the cli".equals(fx(robot, () -> row.lastLineProperty().get())));
        // The status comes with the record, the last line with the output: both within the poll.
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.RUNNING);
        assertTrue(!engine.managesHere(engine.find(id).orElseThrow()), "the CLI's manager owns it; the window follows it");
        long pid = fx(robot, () -> row.snapshot().pid());

        cli("kill", id, "--grace", "1");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, row::status) == SessionStatus.KILLED);
        assertTrue(ProcFs.gone(pid), "the killed session is gone from /proc");
    }

    private static String cli(String command, String... args) {
        String[] all = new String[args.length + 3];
        all[0] = command;
        all[1] = "--data-dir";
        all[2] = dataDir.toString();
        System.arraycopy(args, 0, all, 3, args.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RunboardCli.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        return out.toString();
    }
}
