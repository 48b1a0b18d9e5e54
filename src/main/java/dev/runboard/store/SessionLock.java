package dev.runboard.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Who manages a running session: the runboard process holding this lock. The OS drops it when that
 * process dies, however it dies, which is what lets the next runboard take the session over.
 */
public final class SessionLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private SessionLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock if nobody else (another process, or another engine in this one) holds it. */
    public static Optional<SessionLock> tryAcquire(Path file) throws IOException {
        FileChannel ch = DataDirs.openPrivate(file);
        try {
            FileLock l = ch.tryLock();
            if (l != null) {
                return Optional.of(new SessionLock(ch, l));
            }
        } catch (OverlappingFileLockException heldInThisJvm) {
            // another engine in this process manages it
        }
        ch.close();
        return Optional.empty();
    }

    /** Whether someone manages the session now (without taking the lock). */
    public static boolean isHeld(Path file) {
        try (FileChannel ch = DataDirs.openPrivate(file)) {
            FileLock l = ch.tryLock();
            if (l == null) {
                return true;
            }
            l.release();
            return false;
        } catch (OverlappingFileLockException heldInThisJvm) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // the channel is gone either way; the OS drops the lock with it
        }
    }
}
