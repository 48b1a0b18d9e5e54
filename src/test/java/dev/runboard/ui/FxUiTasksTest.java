package dev.runboard.ui;

import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.common.FxUiTasks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** The hand-off: work off the FX thread, outcomes back on it, failures unwrapped. */
class FxUiTasksTest {
    private final UiTasks tasks = new FxUiTasks();

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @Test
    void workRunsOffTheFxThreadAndItsResultComesBackOnIt() throws Exception {
        AtomicReference<Boolean> workOnFx = new AtomicReference<>();
        AtomicReference<Boolean> thenOnFx = new AtomicReference<>();
        CompletableFuture<Integer> done = tasks.onFx(tasks.background(() -> {
            workOnFx.set(Platform.isFxApplicationThread());
            return 42;
        }), (result, error) -> {
            thenOnFx.set(Platform.isFxApplicationThread());
            assertEquals(42, result);
            assertNull(error);
        });
        assertEquals(42, done.get(10, TimeUnit.SECONDS));
        assertFalse(workOnFx.get());
        assertTrue(thenOnFx.get());
    }

    @Test
    void aFailureReachesTheCallbackUnwrappedAndFailsTheFuture() throws Exception {
        IOException cause = new IOException("no supervisor");
        AtomicReference<Throwable> seen = new AtomicReference<>();
        // thenApply wraps the failure in a CompletionException on the way.
        CompletableFuture<String> done = tasks.onFx(tasks.background(() -> {
            throw cause;
        }).thenApply(Object::toString), (result, error) -> seen.set(error));
        ExecutionException e = assertThrows(ExecutionException.class, () -> done.get(10, TimeUnit.SECONDS));
        assertSame(cause, e.getCause());
        assertSame(cause, seen.get());
    }

    @Test
    void applyOnFxMapsTheResultOnTheFxThread() throws Exception {
        CompletableFuture<String> done = tasks.applyOnFx(tasks.background(() -> 7),
                (n, error) -> (Platform.isFxApplicationThread() ? "fx " : "not fx ") + n);
        assertEquals("fx 7", done.get(10, TimeUnit.SECONDS));
        CompletableFuture<String> refused = tasks.applyOnFx(CompletableFuture.completedFuture(1), (n, error) -> {
            throw new IllegalStateException("refused");
        });
        assertInstanceOf(IllegalStateException.class, assertThrows(ExecutionException.class,
                () -> refused.get(10, TimeUnit.SECONDS)).getCause());
    }

    @Test
    void fxDefersEvenWhenCalledOnTheFxThread() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        WaitForAsyncUtils.waitForAsyncFx(10_000, () -> {
            tasks.fx(() -> order.add("deferred"));
            order.add("now");
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(List.of("now", "deferred"), order);
    }
}
