package dev.runboard.store;

import dev.runboard.artifact.TimeIndex;
import dev.runboard.session.SessionId;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Artifacts as files {@code <dir>/<session-id>.log}. Persisting is a rename (O(1) for a GB file)
 * when the capture is on the same file system, else a copy that is fsynced before the capture goes.
 */
public final class FileArtifactStore implements ArtifactStore {
    /** The artifacts' folder in a data dir, beside {@code sessions/}. */
    public static final String DIR_NAME = "artifacts";

    private final Path dir;

    public FileArtifactStore(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    @Override
    public Path pathFor(String sessionId) {
        return dir.resolve(SessionId.require(sessionId) + ".log");
    }

    @Override
    public Path persist(String sessionId, Path captureFile) throws ArtifactException {
        Path target = pathFor(sessionId);
        try {
            DataDirs.createPrivateDirectories(dir);
            try {
                Files.move(captureFile, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException crossDevice) {
                copyDurably(captureFile, target);
                Files.delete(captureFile);
            }
            moveTimeIndex(captureFile, target);
            moveTrim(captureFile, target);
            return target;
        } catch (IOException e) {
            throw ArtifactException.of("could not persist the output of " + sessionId + " to " + target, e);
        }
    }

    /** The capture's time index goes with it; without one, lines only lack their times, so a failure loses nothing else. */
    private static void moveTimeIndex(Path captureFile, Path target) {
        Path times = TimeIndex.fileFor(captureFile);
        try {
            if (Files.exists(times)) {
                Files.move(times, TimeIndex.fileFor(target), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            // left in the session's folder; the artifact is what matters
        }
    }

    /**
     * What max_output cut from the capture's start goes with it too, so the artifact is read at the same
     * offsets as the capture was (dev.runboard.session.OutputTrim); moved after the capture, so a reader
     * never meets a capture that says less was cut than was.
     */
    private static void moveTrim(Path captureFile, Path target) throws IOException {
        Path trim = dev.runboard.session.OutputTrim.fileFor(captureFile);
        Path moved = dev.runboard.session.OutputTrim.fileFor(target);
        if (trim != null && moved != null && Files.exists(trim)) {
            Files.move(trim, moved, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void copyDurably(Path from, Path to) throws IOException {
        Path tmp = to.resolveSibling(to.getFileName() + ".part");
        try {
            Files.deleteIfExists(tmp);
            DataDirs.createPrivateFile(tmp);
            try (FileChannel in = dev.runboard.session.OutputFile.open(from);
                 FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                long size = in.size();
                // Read at the output's offsets: a capture kept to max_output starts where its wrapper last cut.
                for (long done = dev.runboard.session.OutputFile.trim(in).dropped(), n; done < size; done += n) {
                    n = in.transferTo(done, size - done, ch);
                    if (n <= 0) {
                        break; // the capture shrank meanwhile: what is there is copied
                    }
                }
                ch.force(true);
            }
            Files.move(tmp, to, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    @Override
    public void delete(String sessionId) throws IOException {
        Files.deleteIfExists(pathFor(sessionId));
        Files.deleteIfExists(TimeIndex.fileFor(pathFor(sessionId)));
        Files.deleteIfExists(dev.runboard.session.OutputTrim.fileFor(pathFor(sessionId)));
    }
}
