package dev.runboard.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Who manages a running session: the runboard process holding this lock. The OS drops it when that
 * process dies, however it dies, which is what lets the next runboard take the session over.
 */
public final class SessionLock implements AutoCloseable {
    /**
     * The lock files this JVM holds. On Linux a file lock belongs to the process, and closing any
     * channel on the file drops it: a second channel opened here to ask (an engine's pass over its own
     * pending session, a read-only check) and closed again released the supervisor's lock, and another
     * runboard then took the running session over (two owners of one session). So this JVM never
     * opens a second channel on a lock file it holds: it answers from this set.
     */
    private static final Set<Path> HELD = new HashSet<>();

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private SessionLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock if nobody else (another process, or another engine in this one) holds it. */
    public static Optional<SessionLock> tryAcquire(Path file) throws IOException {
        Path key = file.toAbsolutePath().normalize();
        synchronized (HELD) {
            if (HELD.contains(key)) {
                return Optional.empty(); // another engine in this process manages it
            }
            FileChannel ch = DataDirs.openPrivate(file);
            try {
                FileLock l = ch.tryLock();
                if (l != null) {
                    HELD.add(key);
                    return Optional.of(new SessionLock(key, ch, l));
                }
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
            ch.close(); // held by another process: closing our channel drops nothing of ours
            return Optional.empty();
        }
    }

    /** Whether someone manages the session now (without taking the lock). */
    public static boolean isHeld(Path file) {
        Path key = file.toAbsolutePath().normalize();
        synchronized (HELD) {
            if (HELD.contains(key)) {
                return true;
            }
            try (FileChannel ch = DataDirs.openPrivate(file)) {
                FileLock l = ch.tryLock();
                if (l == null) {
                    return true;
                }
                l.release();
                return false;
            } catch (OverlappingFileLockException | IOException e) {
                return e instanceof OverlappingFileLockException;
            }
        }
    }

    @Override
    public void close() {
        synchronized (HELD) {
            try {
                lock.release();
                channel.close();
            } catch (IOException ignored) {
                // the channel is gone either way; the OS drops the lock with it
            } finally {
                HELD.remove(file);
            }
        }
    }
}
