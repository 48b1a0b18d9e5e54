package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.AtomicFiles;
import dev.runboard.store.SessionStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad things in the data dir give a clear message and lose nothing else. */
class StoreFailureTest {
    @TempDir
    Path dataDir;

    /** The store's seam, failing like the named OS error while {@code failing} is set. */
    private static AtomicFiles failingWith(String reason, AtomicBoolean failing) {
        return (target, content) -> {
            if (failing.get()) {
                throw new FileSystemException(target.toString(), null, reason);
            }
            AtomicFiles.SYSTEM.write(target, content);
        };
    }

    private SessionSnapshot runWhileStoreFails(String reason) throws Exception {
        AtomicBoolean failing = new AtomicBoolean(true);
        EngineConfig config = EngineConfig.forDataDir(dataDir).withStore(new SessionStore(dataDir, failingWith(reason, failing)));
        List<String> warnings = new CopyOnWriteArrayList<>();
        try (EngineFixture fx = new EngineFixture(config, dataDir)) {
            fx.engine().onWarning(warnings::add);
            SessionSnapshot s = fx.run(fx.sh("seq 1 30000").previewBytes(4096).build());
            assertEquals(SessionStatus.COMPLETED, s.status(), "the command is unaffected by the store");
            assertTrue(Files.size(Path.of(s.artifact())) > 100_000, "the output is all there");
            assertFalse(warnings.isEmpty());
            assertTrue(warnings.get(0).contains("could not save session " + s.sessionId()), warnings.get(0));
            assertTrue(warnings.get(0).contains(dataDir.toString()), "the message says which dir to fix");
            return s;
        }
    }

    @Test
    void aFullDiskIsReportedAndTheSessionStillRuns() throws Exception {
        runWhileStoreFails("No space left on device");
    }

    @Test
    void aReadOnlyDataDirIsReportedAndTheSessionStillRuns() throws Exception {
        runWhileStoreFails("Read-only file system");
    }

    @Test
    void aCorruptRecordIsMovedAsideAndTheOthersLoad() throws Exception {
        String good;
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            good = fx.run(fx.sh("echo kept").build()).sessionId();
            String bad = fx.run(fx.sh("echo lost record").build()).sessionId();
            Files.writeString(dataDir.resolve("sessions").resolve(bad).resolve("session.json"), "{\"status\": \"compl");
        }
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            List<String> warnings = fx.engine().loadHistory();
            assertEquals(1, warnings.size());
            assertTrue(warnings.get(0).contains("is not valid JSON") && warnings.get(0).contains("moved to"), warnings.get(0));
            assertEquals(List.of(good), fx.engine().sessions().stream().map(Session::id).toList());
            assertEquals("kept\n", fx.engine().sessions().get(0).snapshot().output());
            assertTrue(Files.isDirectory(dataDir.resolve("corrupt")));
        }
    }

    @Test
    void aCaptureDeletedWhileRunningIsSaidInTheReason() throws Exception {
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            Session s = fx.engine().start(fx.sh("echo one; read x; echo two").build());
            Await.until(java.time.Duration.ofSeconds(10), "first output", () -> s.snapshot().output().contains("one"));
            Files.delete(s.captureFile());
            fx.engine().stdin(s).write("go\n".getBytes());
            fx.engine().stdin(s).flush();
            SessionSnapshot last = EngineFixture.awaitEnd(s);
            assertEquals(SessionStatus.COMPLETED, last.status());
            assertTrue(last.reason().contains("was deleted while the command ran"), last.reason());
        }
    }
}
