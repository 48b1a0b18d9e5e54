package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.process.Await;
import dev.runboard.process.EngineConfig;
import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command that ends while the window is still reading its first record (a build step of a few
 * milliseconds) must still be seen to end: the window once took the stamp of the final record as
 * that of the record it had read, and showed such a session "running" for good.
 */
class QuickEndsSeenTest {
    @TempDir
    Path dataDir;

    @Test
    void everyQuickCommandStartedThroughTheSupervisorIsSeenToComplete() throws Exception {
        try (SupervisorFixture supervisor = new SupervisorFixture(dataDir);
             SupervisedSessions view = new SupervisedSessions(EngineConfig.forDataDir(dataDir), supervisor.client())) {
            view.load();
            view.follow(Duration.ofMillis(100));
            List<Session> started = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                started.add(view.start(SessionSpec.shell("echo quick " + i).cwd(dataDir).shell(Path.of("/bin/sh")).build()));
            }
            Await.until(Duration.ofSeconds(60), "every quick command seen to end",
                    () -> started.stream().allMatch(s -> s.status().isTerminal()));
            for (Session s : started) {
                assertEquals(SessionStatus.COMPLETED, s.status(), s.spec().displayCommand());
            }
        }
    }
}
