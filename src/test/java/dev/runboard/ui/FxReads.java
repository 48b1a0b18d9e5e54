package dev.runboard.ui;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.testfx.api.FxRobot;

/** Reads FX state on the FX thread, for the window tests. */
public final class FxReads {
    private FxReads() {
    }

    public static <T> T fx(FxRobot robot, Supplier<T> read) {
        AtomicReference<T> value = new AtomicReference<>();
        robot.interact(() -> value.set(read.get()));
        return value.get();
    }
}
