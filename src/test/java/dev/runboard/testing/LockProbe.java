package dev.runboard.testing;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Another process's view of a lock file, for CrossForkLockTest: prints "busy" or "free". */
public final class LockProbe {
    private LockProbe() {
    }

    public static void main(String[] args) throws Exception {
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            System.out.println(lock == null ? "busy" : "free");
        }
    }
}
