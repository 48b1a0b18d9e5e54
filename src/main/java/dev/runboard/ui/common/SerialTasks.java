package dev.runboard.ui.common;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Background work that must happen in the order it was asked for (session starts, so the table
 * lists them in that order; writes to one stdin): each piece starts on {@link UiTasks#background}
 * once the one before it has ended, whatever its outcome. Other work does not wait behind it.
 */
public final class SerialTasks {
    private final UiTasks tasks;
    private CompletableFuture<?> last = CompletableFuture.completedFuture(null);

    public SerialTasks(UiTasks tasks) {
        this.tasks = tasks;
    }

    public synchronized <T> CompletableFuture<T> background(Callable<T> work) {
        CompletableFuture<T> next = last.handle((r, e) -> null).thenCompose(ignored -> tasks.background(work));
        last = next;
        return next;
    }
}
