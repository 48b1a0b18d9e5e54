package dev.runboard.ui.common;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * {@link UiTasks} that runs everything at once on the calling thread (JabRef's
 * {@code CurrentThreadTaskExecutor}): a view-model test calls a method and finds its result already
 * applied, with no FX toolkit, no worker and nothing to wait for. Only for view-models whose
 * properties nothing else watches from the FX thread.
 */
public final class InlineUiTasks implements UiTasks {
    @Override
    public <T> CompletableFuture<T> background(Callable<T> work) {
        try {
            return CompletableFuture.completedFuture(work.call());
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void fx(Runnable action) {
        action.run();
    }
}
