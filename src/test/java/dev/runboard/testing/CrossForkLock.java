package dev.runboard.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Holds {@link Exclusive}'s file locks from before a class's {@code @BeforeAll} to after its
 * {@code @AfterAll}. The lock files live in {@code runboard.test.lockDir} (Surefire points it at the
 * build folder, shared by every fork of one build), in sorted order so two classes never deadlock.
 */
public final class CrossForkLock implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(CrossForkLock.class);

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Exclusive exclusive = context.getRequiredTestClass().getAnnotation(Exclusive.class);
        if (exclusive == null) {
            return;
        }
        String[] names = exclusive.value().clone();
        Arrays.sort(names);
        List<AutoCloseable> held = new ArrayList<>();
        context.getStore(NAMESPACE).put("locks", held);
        for (String name : names) {
            held.add(hold(name));
        }
    }

    /**
     * Holds the lock {@code name} until closed, for a step rather than a class (installing sshd with
     * apt, which two forks must not run at once). Not re-entrant: a class holding {@code name} through
     * {@link Exclusive} must not ask for it again.
     */
    public static AutoCloseable hold(String name) throws IOException {
        FileLock lock = acquire(name);
        return () -> {
            lock.release();
            lock.channel().close();
        };
    }

    /** The lock file of {@code name}, in the folder every fork of the build shares. */
    static Path file(String name) {
        return Path.of(System.getProperty("runboard.test.lockDir", "target/test-locks"), name + ".lock");
    }

    private static FileLock acquire(String name) throws IOException {
        Path file = file(name);
        Files.createDirectories(file.getParent());
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            return channel.lock();
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void afterAll(ExtensionContext context) throws Exception {
        List<AutoCloseable> held = context.getStore(NAMESPACE).remove("locks", List.class);
        if (held != null) {
            for (AutoCloseable lock : held) {
                lock.close();
            }
        }
    }
}
