package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionTest {
    @TempDir
    Path dataDir;

    @Test
    void theOldestFinishedArePrunedAndRunningOnesNever() throws Exception {
        EngineConfig config = EngineConfig.forDataDir(dataDir).withRetention(new EngineConfig.Retention(3, Long.MAX_VALUE));
        try (EngineFixture fx = new EngineFixture(config, dataDir)) {
            fx.engine().loadHistory(); // the supervisor's role: it owns the history, so it prunes
            Session longRunning = fx.engine().start(fx.sh("sleep 30").build());
            List<Session> finished = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                Session s = fx.engine().start(fx.sh("echo " + i).build());
                EngineFixture.awaitEnd(s);
                finished.add(s);
            }
            Await.until(Duration.ofSeconds(10), "retention to prune", () -> fx.engine().sessions().size() == 4);
            assertEquals(List.of(longRunning, finished.get(2), finished.get(3), finished.get(4)), fx.engine().sessions());
            assertEquals(SessionStatus.RUNNING, longRunning.status());
            assertFalse(Files.exists(dataDir.resolve("sessions").resolve(finished.get(0).id())), "pruned from disk");
            assertTrue(Files.exists(dataDir.resolve("sessions").resolve(finished.get(4).id()).resolve("session.json")));
        }
    }

    @Test
    void artifactBytesArePrunedOldestFirst() throws Exception {
        EngineConfig config = EngineConfig.forDataDir(dataDir).withRetention(new EngineConfig.Retention(1000, 150_000));
        try (EngineFixture fx = new EngineFixture(config, dataDir)) {
            fx.engine().loadHistory(); // the supervisor's role: it owns the history, so it prunes
            List<Session> all = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Session s = fx.engine().start(fx.sh("seq 1 20000").previewBytes(4096).build()); // ~109 KB artifact each
                EngineFixture.awaitEnd(s);
                all.add(s);
            }
            Await.until(Duration.ofSeconds(10), "retention to prune", () -> fx.engine().sessions().size() == 1);
            assertEquals(List.of(all.get(2)), fx.engine().sessions());
            assertFalse(Files.exists(dataDir.resolve("artifacts").resolve(all.get(0).id() + ".log")));
        }
    }

    @Test
    void theNewestSessionKeepsItsArtifactEvenWhenItAloneExceedsTheLimit() throws Exception {
        EngineConfig config = EngineConfig.forDataDir(dataDir).withRetention(new EngineConfig.Retention(1000, 10_000));
        try (EngineFixture fx = new EngineFixture(config, dataDir)) {
            fx.engine().loadHistory(); // the supervisor's role: it owns the history, so it prunes
            Session older = fx.engine().start(fx.sh("seq 1 20000").previewBytes(4096).build());
            EngineFixture.awaitEnd(older);
            Session newest = fx.engine().start(fx.sh("seq 1 30000").previewBytes(4096).build());
            Path artifact = Path.of(EngineFixture.awaitEnd(newest).artifact());
            Await.until(Duration.ofSeconds(10), "retention to prune the older one", () -> fx.engine().sessions().size() == 1);
            assertEquals(List.of(newest), fx.engine().sessions());
            assertTrue(Files.exists(artifact), "the output just produced is kept");
        }
    }

    @Test
    void anEngineThatOwnsOnlyItsOwnSessionNeverPrunes() throws Exception {
        // exec owns just the session it runs: other sessions' history is the supervisor's to prune.
        EngineConfig config = EngineConfig.forDataDir(dataDir).withRetention(new EngineConfig.Retention(1, Long.MAX_VALUE));
        try (EngineFixture owner = new EngineFixture(EngineConfig.forDataDir(dataDir), dataDir)) {
            owner.run(owner.sh("echo one").build());
            owner.run(owner.sh("echo two").build());
        }
        try (EngineFixture exec = new EngineFixture(config, dataDir)) {
            exec.run(exec.sh("echo three").build());
        }
        try (var ids = Files.list(dataDir.resolve("sessions"))) {
            assertEquals(3, ids.count(), "no session was deleted by an engine that does not own the history");
        }
    }
}
