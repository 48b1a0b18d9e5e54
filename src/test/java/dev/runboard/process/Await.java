package dev.runboard.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.opentest4j.AssertionFailedError;

/** Waits for a condition a user could observe (a file, a /proc entry), failing after a deadline: never a blind sleep. */
public final class Await {
    private Await() {
    }

    public static void until(Duration limit, String what, BooleanSupplier condition) {
        until(limit, () -> what, condition);
    }

    /** As {@link #until(Duration, String, BooleanSupplier)}, with {@code what} asked at the failure: it can say what was seen instead. */
    public static void until(Duration limit, java.util.function.Supplier<String> what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        for (int round = 0; !condition.getAsBoolean(); round++) {
            if (System.nanoTime() > deadline) {
                throw new AssertionFailedError("gave up after " + limit.toMillis() + " ms waiting for " + what.get());
            }
            dev.runboard.testing.Poll.pause(round);
        }
    }

    /** The pid a shell command writes to {@code file} ({@code echo $$ > file}), once the file holds a whole number. */
    public static long pidFile(Path file, Duration limit) throws IOException {
        until(limit, "a pid in " + file.getFileName(), () -> {
            try {
                return Files.exists(file) && Files.readString(file).strip().matches("\\d+");
            } catch (IOException e) {
                return false;
            }
        });
        return Long.parseLong(Files.readString(file).strip());
    }
}
