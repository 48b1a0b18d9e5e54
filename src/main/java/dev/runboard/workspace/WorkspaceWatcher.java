package dev.runboard.workspace;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Watches a workspace folder on its own daemon thread: when {@code runboard.yaml} or a discovery
 * source changes (edited, replaced by a rename, pulled from git), it waits until the folder has
 * been quiet for the debounce period, reads it again and hands the {@link WorkspaceLoad} to the
 * listener, on the watcher's thread. One reading per burst of events, however many there were.
 */
public final class WorkspaceWatcher implements AutoCloseable {
    public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(200);
    private final Path root;
    private final Duration debounce;
    private final Consumer<WorkspaceLoad> listener;
    private final WatchService watch;
    private final Thread thread;

    private WorkspaceWatcher(Path root, Duration debounce, Consumer<WorkspaceLoad> listener) throws IOException {
        this.root = root.toAbsolutePath().normalize();
        this.debounce = debounce;
        this.listener = listener;
        this.watch = FileSystems.getDefault().newWatchService();
        this.root.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                StandardWatchEventKinds.ENTRY_DELETE);
        this.thread = new Thread(this::run, "runboard-workspace-watch");
        this.thread.setDaemon(true);
    }

    /** Starts watching {@code root}; close it to stop. */
    public static WorkspaceWatcher start(Path root, Duration debounce, Consumer<WorkspaceLoad> listener) throws IOException {
        WorkspaceWatcher w = new WorkspaceWatcher(root, debounce, listener);
        w.thread.start();
        return w;
    }

    public Path root() {
        return root;
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = watch.take();
                boolean relevant = drain(key);
                // Debounce: keep collecting until nothing has happened for the debounce period.
                while ((key = watch.poll(debounce.toMillis(), TimeUnit.MILLISECONDS)) != null) {
                    relevant |= drain(key);
                }
                if (relevant) {
                    listener.accept(WorkspaceLoad.read(root));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ClosedWatchServiceException e) {
            // closed: done
        }
    }

    /** Whether the key's events touch a file that matters; resets the key. */
    private boolean drain(WatchKey key) {
        boolean relevant = false;
        for (WatchEvent<?> event : key.pollEvents()) {
            if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
                relevant = true;
            } else if (event.context() instanceof Path name) {
                String n = name.toString();
                relevant |= n.equals(WorkspaceYaml.FILE_NAME) || CommandDiscovery.SOURCE_FILES.contains(n);
            }
        }
        key.reset();
        return relevant;
    }

    @Override
    public void close() {
        try {
            watch.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
        thread.interrupt();
    }
}
