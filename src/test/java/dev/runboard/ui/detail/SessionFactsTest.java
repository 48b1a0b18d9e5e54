package dev.runboard.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Facts tab's words for real sessions' snapshots. */
class SessionFactsTest {
    @TempDir
    Path dataDir;

    @Test
    void aTimeoutReadsAsTheElapsedColumnReadsTime() throws Exception {
        try (SessionEngine engine = SessionEngine.forDataDir(dataDir)) {
            Session running = engine.start(SessionSpec.shell("sleep 30").cwd(dataDir).timeout(Duration.ofHours(1)).build());
            CompletableFuture<SessionSnapshot> ended = new CompletableFuture<>();
            Session quick = engine.start(SessionSpec.shell("true").cwd(dataDir).timeout(Duration.ofSeconds(90)).build());
            quick.addListener(ended::complete);
            try {
                assertEquals("1h 00m  (59m 18s left)", SessionFacts.of(running.snapshot(), Duration.ofSeconds(42)).timeout());
                assertEquals("1h 00m  (0 s left)", SessionFacts.of(running.snapshot(), Duration.ofHours(2)).timeout(),
                        "never below nothing left");
                assertEquals("not yet", SessionFacts.of(running.snapshot(), Duration.ofSeconds(1)).ended(), "not \"Ended: running\"");
                assertEquals("this machine", SessionFacts.of(running.snapshot(), Duration.ofSeconds(1)).host());
                assertEquals("PID", SessionFacts.of(running.snapshot(), Duration.ofSeconds(1)).pidName(), "a pid of this machine");
                ended.get(20, TimeUnit.SECONDS);
                assertEquals("1m 30s", SessionFacts.of(quick.snapshot(), Duration.ofSeconds(1)).timeout(), "an ended one: the limit alone");
            } finally {
                engine.killAll(Duration.ofSeconds(1));
            }
        }
    }
}
