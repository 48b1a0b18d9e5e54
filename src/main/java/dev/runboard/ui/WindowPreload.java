package dev.runboard.ui;

import dev.runboard.store.DataDirs;
import dev.runboard.ui.common.HeapPolicy;
import dev.runboard.store.SessionStore;
import dev.runboard.store.SettingsStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What the first frame needs from disk, read while JavaFX starts: the settings (the theme, the
 * poll period) and how many sessions the history holds (the placeholder's "Loading 1,000
 * sessions…"). The JVM's main thread only waits while the toolkit starts, so reading them there
 * costs the first frame nothing; read on the FX thread they cost it ~0.6 s of CPU (Jackson's
 * first use). The history itself is read after the first frame. The heap policy is set there too.
 */
final class WindowPreload {
    /** What was read: the data dir, its settings and the number of session folders. */
    record Read(Path dataDir, SettingsStore.Loaded settings, int sessions) {
    }

    private static volatile CompletableFuture<Read> started;

    private WindowPreload() {
    }

    /** Starts reading on a thread of its own; called once, before the toolkit starts. */
    static void begin() {
        started = CompletableFuture.supplyAsync(() -> {
            // The heap's free ratios set through JMX, whose first use costs ~30 ms: not on the FX thread.
            HeapPolicy.keepHeapTight();
            return read();
        }, runnable -> {
            Thread t = new Thread(runnable, "runboard-preload");
            t.setDaemon(true);
            t.start();
        });
    }

    /** What {@link #begin()} read, waiting for it if need be; read here when it was never begun. */
    static Read get() {
        CompletableFuture<Read> read = started;
        started = null;
        if (read == null) {
            return read();
        }
        try {
            return read.join();
        } catch (CompletionException e) {
            // The same failure as when read on this thread (e.g. a data dir variable that names no usable folder).
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private static Read read() {
        Path dataDir = DataDirs.resolve(null);
        SettingsStore.Loaded settings = new SettingsStore(dataDir).loadOrCreate();
        return new Read(dataDir, settings, new SessionStore(dataDir).folderCount());
    }
}
