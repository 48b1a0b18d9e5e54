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
            assertEquals("not_found", last.artifactErrorCode(), "a script sees it as it sees a lost artifact");
        }
    }

    @Test
    void aFifoInPlaceOfARecordIsMovedAsideAndBlocksNothing() throws Exception {
        Path folder = Files.createDirectories(dataDir.resolve("sessions/20261206-101500-abcdef"));
        Process mkfifo = new ProcessBuilder("mkfifo", folder.resolve("session.json").toString()).start();
        assertEquals(0, mkfifo.waitFor());
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            java.util.concurrent.CompletableFuture<java.util.List<String>> loaded =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> fx.engine().loadHistory());
            java.util.List<String> warnings = loaded.get(30, java.util.concurrent.TimeUnit.SECONDS); // a read of the FIFO would block for ever
            assertTrue(warnings.stream().anyMatch(w -> w.contains("not a file runboard wrote")), warnings.toString());
            assertTrue(!Files.exists(folder.resolve("session.json")), "moved aside");
        }
    }

    @Test
    void aCaptureReplacedByALinkIsNotReadThrough() throws Exception {
        Path secret = Files.writeString(dataDir.resolveSibling(dataDir.getFileName() + "-secret"), "not the session's\n");
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            Session s = fx.engine().start(fx.sh("echo one; read x; echo two").build());
            Await.until(java.time.Duration.ofSeconds(10), "first output", () -> s.snapshot().output().contains("one"));
            Files.delete(s.captureFile());
            Files.createSymbolicLink(s.captureFile(), secret);
            fx.engine().stdin(s).write("go\n".getBytes());
            fx.engine().stdin(s).flush();
            SessionSnapshot last = EngineFixture.awaitEnd(s);
            assertTrue(!last.output().contains("not the session's"), last.output());
            assertTrue(last.reason().contains("replaced by a link"), last.reason());
            assertEquals("io_error", last.artifactErrorCode());
        } finally {
            Files.deleteIfExists(secret);
        }
    }
}
