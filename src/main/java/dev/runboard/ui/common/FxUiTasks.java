package dev.runboard.ui.common;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.application.Platform;

/**
 * The app's {@link UiTasks}: background work on a pool of daemon threads (sized by demand: the
 * work is a person's commands, some of which wait seconds for a supervisor to start), and the
 * only call of {@link Platform#runLater} in the code base (ArchUnit keeps it so).
 */
public final class FxUiTasks implements UiTasks {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "runboard-ui-task-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    @Override
    public <T> CompletableFuture<T> background(Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        workers.execute(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    @Override
    public void fx(Runnable action) {
        Platform.runLater(action);
    }
}
