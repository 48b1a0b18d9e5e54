package dev.runboard.ui;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.testfx.api.FxRobot;

/** Reads FX state on the FX thread, for the window tests. */
public final class FxReads {
    /** How long {@link #await} waits for a command's outcome (a start may have to bring up a supervisor). */
    public static final long AWAIT_S = 30;

    private FxReads() {
    }

    public static <T> T fx(FxRobot robot, Supplier<T> read) {
        AtomicReference<T> value = new AtomicReference<>();
        robot.interact(() -> value.set(read.get()));
        return value.get();
    }

    /**
     * Makes a view-model command on the FX thread (e.g. {@code window.model().launch(spec)}) and
     * waits here, off the FX thread, for the future it returns; a failed command rethrows its cause.
     */
    public static <T> T await(FxRobot robot, Supplier<CompletableFuture<T>> command) {
        CompletableFuture<T> outcome = fx(robot, command);
        try {
            return outcome.get(AWAIT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the command did not complete within " + AWAIT_S + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
