package dev.runboard.ui;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import org.testfx.api.FxRobot;
import org.testfx.api.FxRobotInterface;

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
     * Clicks the middle of {@code node}, its position read on the FX thread. TestFX's own
     * {@code clickOn(node)} reads the node's bounds on the test's thread, and reading bounds is a
     * write: it recomputes each Parent's cached bounds and clears its children's dirty marks, as
     * the pulse does on the FX thread. On a node the FX thread is changing (the output tail, which
     * lays out new cells every poll) the two interleaved and left a Parent's count of dirty
     * children above its marked children: the pulses after threw IndexOutOfBoundsException
     * (index -1) in Parent.updateCachedBounds, and TestFX reported them in the next tests.
     */
    public static FxRobotInterface clickOn(FxRobot robot, Node node) {
        Point2D middle = fx(robot, () -> robot.point(node).query());
        return robot.clickOn(middle);
    }

    /** As {@link #clickOn(FxRobot, Node)}, for the node {@code query} finds (looked up on the FX thread too). */
    public static FxRobotInterface clickOn(FxRobot robot, String query) {
        Point2D middle = fx(robot, () -> robot.point(query).query());
        return robot.clickOn(middle);
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
