package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.ArtifactErrorCode;
import dev.runboard.store.ArtifactException;
import dev.runboard.store.ArtifactStore;
import dev.runboard.store.FileArtifactStore;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output of real commands: what lands in the preview, the artifact, and what happens when persisting fails. */
class OutputCaptureTest {
    @TempDir
    Path dataDir;

    @Test
    void hundredMegabytesGiveABoundedPreviewAndAByteIdenticalArtifact() throws Exception {
        // The same generator twice: once through runboard, once redirected by the shell.
        String generator = "i=0; while [ $i -lt 20 ]; do yes \"chunk $i: the quick brown fox jumps over the lazy dog\" | head -c 5000000; i=$((i+1)); done";
        Path reference = dataDir.resolve("reference.log");
        Process p = new ProcessBuilder("/bin/sh", "-c", generator).redirectOutput(reference.toFile()).start();
        assertEquals(0, p.waitFor());
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            SessionSnapshot s = fx.run(fx.sh(generator).build());
            assertEquals(SessionStatus.COMPLETED, s.status());
            assertTrue(s.outputTruncated());
            assertEquals(100_000_000L, s.outputOriginalBytes());
            assertTrue(s.outputVisibleBytes() <= 64 * 1024);
            assertTrue(s.output().length() < 70 * 1024, "the preview string stays near the bound");
            Path artifact = Path.of(s.artifact());
            assertEquals(new FileArtifactStore(dataDir.resolve("artifacts")).pathFor(s.sessionId()), artifact);
            assertEquals(EngineFixture.sha256(Files.newInputStream(reference)), EngineFixture.sha256(Files.newInputStream(artifact)),
                    "artifact is byte-identical to what was written");
            assertFalse(Files.exists(dataDir.resolve("sessions").resolve(s.sessionId()).resolve("capture.log")),
                    "the capture was moved, not copied");
            assertTrue(s.output().endsWith("chunk 19: the quick brown fox jumps over the lazy dog\n")
                    || s.output().contains("chunk 19"), "tail shows the end");
        }
    }

    @Test
    void invalidUtf8AndNulAreReplacedInThePreviewButKeptInTheFile() throws Exception {
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            SessionSnapshot s = fx.run(fx.sh("printf 'ok \\377\\376 nul:\\000: end\\n'").build());
            assertEquals("ok \uFFFD\uFFFD nul:\uFFFD: end\n", s.output());
        }
    }

    @Test
    void aTenMegabyteLineIsCapturedWhole() throws Exception {
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            SessionSnapshot s = fx.run(fx.sh("echo first; head -c 10485760 /dev/zero | tr '\\0' y; echo; echo last").build());
            assertEquals(SessionStatus.COMPLETED, s.status());
            assertEquals(6 + 10_485_760 + 1 + 5, s.outputOriginalBytes());
            assertEquals(6 + 10_485_760 + 1 + 5, Files.size(Path.of(s.artifact())));
            assertEquals("last", s.lastLine());
        }
    }

    @Test
    void whenPersistingFailsTheSnapshotSaysWhyAndTheCaptureIsKept() throws Exception {
        ArtifactStore full = new ArtifactStore() {
            @Override
            public Path persist(String sessionId, Path captureFile) throws ArtifactException {
                throw ArtifactException.of("could not persist the output of " + sessionId,
                        new FileSystemException(captureFile.toString(), null, "No space left on device"));
            }

            @Override
            public Path pathFor(String sessionId) {
                return dataDir.resolve("never").resolve(sessionId);
            }

            @Override
            public void delete(String sessionId) throws IOException {
                throw new IOException("unused");
            }
        };
        try (EngineFixture fx = new EngineFixture(EngineConfig.forDataDir(dataDir).withArtifacts(full), dataDir)) {
            SessionSnapshot s = fx.run(fx.sh("seq 1 100000").previewBytes(4096).build());
            assertEquals(SessionStatus.COMPLETED, s.status(), "the command's own status is unaffected");
            assertNull(s.artifact());
            assertEquals(ArtifactErrorCode.DISK_FULL.code(), s.artifactErrorCode());
            assertTrue(s.artifactError().contains("the disk is full"), s.artifactError());
            Path kept = Path.of(s.captureFile());
            assertTrue(s.artifactError().contains(kept.toString()), "the message says where the output is");
            Process seq = new ProcessBuilder("seq", "1", "100000").start();
            assertArrayEquals(seq.getInputStream().readAllBytes(), Files.readAllBytes(kept), "nothing lost");
            seq.waitFor();
        }
    }

    @Test
    void errorCodesAreClassifiedFromTheIoFailure() {
        assertEquals(ArtifactErrorCode.NOT_FOUND, ArtifactErrorCode.of(new java.nio.file.NoSuchFileException("/x")));
        assertEquals(ArtifactErrorCode.PERMISSION_DENIED, ArtifactErrorCode.of(new java.nio.file.AccessDeniedException("/x")));
        assertEquals(ArtifactErrorCode.DISK_FULL, ArtifactErrorCode.of(new IOException("No space left on device")));
        assertEquals(ArtifactErrorCode.IO_ERROR, ArtifactErrorCode.of(new IOException("Input/output error")));
    }
}
