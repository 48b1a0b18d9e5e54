package dev.runboard.ui.common;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one hand-off between the FX thread and the work it must not do (JabRef's
 * {@code TaskExecutor}): a view-model submits slow work with {@link #background}, and takes the
 * outcome back on the FX thread with {@link #onFx} or {@link #applyOnFx}; {@link #fx} defers a
 * small action to the FX thread. {@link FxUiTasks} is the app's; a test may pass its own.
 *
 * <p>A future returned by {@code onFx}/{@code applyOnFx} completes on the FX thread, so stages a
 * caller on the FX thread chains onto it without {@code ...Async} run on the FX thread too.
 */
public interface UiTasks {

    /** Runs {@code work} off the FX thread; the future completes on the worker with its result or what it threw. */
    <T> CompletableFuture<T> background(Callable<T> work);

    /** Runs {@code action} on the FX thread, later: also when called there (a deferral to the next pulse). */
    void fx(Runnable action);

    /**
     * Calls {@code then} on the FX thread with the stage's result, or with what it failed with
     * (unwrapped from {@link CompletionException}), the other argument null. The returned future
     * completes there, after {@code then}, with the stage's own outcome (or what {@code then} threw).
     */
    default <T> CompletableFuture<T> onFx(CompletionStage<T> stage, BiConsumer<? super T, ? super Throwable> then) {
        return applyOnFx(stage, (result, error) -> {
            then.accept(result, error);
            if (error != null) {
                throw error instanceof CompletionException c ? c : new CompletionException(error);
            }
            return result;
        });
    }

    /**
     * As {@link #onFx}, the returned future completing with what {@code then} returns; when
     * {@code then} throws, with that (a {@link CompletionException} stands for its cause).
     */
    default <T, R> CompletableFuture<R> applyOnFx(CompletionStage<T> stage,
                                                  BiFunction<? super T, ? super Throwable, ? extends R> then) {
        CompletableFuture<R> done = new CompletableFuture<>();
        stage.whenComplete((result, error) -> fx(() -> {
            Throwable cause = unwrap(error);
            try {
                done.complete(then.apply(result, cause));
            } catch (CompletionException e) {
                done.completeExceptionally(e.getCause() == null ? e : e.getCause());
            } catch (RuntimeException | Error e) {
                Logger.getLogger(UiTasks.class.getName()).log(Level.WARNING, "a callback on the FX thread failed", e);
                done.completeExceptionally(e);
            }
        }));
        return done;
    }

    /** The failure a person should read: the cause inside the futures' wrappers. */
    static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
