package dev.runboard.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.LongFunction;
import javafx.application.Platform;
import javafx.scene.Scene;

/**
 * The window's start-up figures, opt-in for benchmarks (bench/window-start.sh): with
 * {@code RUNBOARD_STARTUP_REPORT=FILE} the app appends {@code name value} lines to FILE, times in
 * milliseconds since the process started (the kernel's start time, so the JVM's own start-up
 * counts): {@code first_frame_ms} at the first pulse that lays out the shown table,
 * {@code history_ms} at the pulse after the table got the whole history. With
 * {@code RUNBOARD_STARTUP_SCROLL=1} it then scrolls the table end to end, a page per pulse, and
 * writes the frame times; with {@code RUNBOARD_STARTUP_EXIT=1} it quits once everything is
 * written (class-data training runs). Without the variable every call here does nothing.
 */
final class StartupReport {
    private final Path file;
    private final boolean scroll;
    private final boolean exit;
    private final ProcessClock clock;

    private StartupReport(Path file, boolean scroll, boolean exit, LongFunction<OptionalLong> millisSinceStart) {
        this.file = file;
        this.scroll = scroll;
        this.exit = exit;
        this.clock = file == null ? null : ProcessClock.start(millisSinceStart);
    }

    /** @param millisSinceStart how long ago the kernel started a process, by pid (ProcessClock) */
    static StartupReport fromEnvironment(LongFunction<OptionalLong> millisSinceStart) {
        String file = System.getenv("RUNBOARD_STARTUP_REPORT");
        return new StartupReport(file == null || file.isBlank() ? null : Path.of(file),
                "1".equals(System.getenv("RUNBOARD_STARTUP_SCROLL")), "1".equals(System.getenv("RUNBOARD_STARTUP_EXIT")),
                millisSinceStart);
    }

    boolean enabled() {
        return file != null;
    }

    /** Writes {@code name} with the time since the process started. */
    void mark(String name) {
        if (enabled()) {
            if (name.equals("fx_start_ms")) {
                write("pid " + ProcessHandle.current().pid()); // the benchmark ends the app by it
            }
            long cpu = ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(-1L);
            write(name + " " + clock.millisSinceStart()
                    + System.lineSeparator() + name.replace("_ms", "_cpu_ms") + " " + cpu);
        }
    }

    /** Runs {@code work} and writes the FX thread's CPU time it took as {@code name} (the hand-over of the rows). */
    void timed(String name, Runnable work) {
        if (!enabled()) {
            work.run();
            return;
        }
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadCpuTime();
        work.run();
        write(name + " " + (threads.getCurrentThreadCpuTime() - before) / 1_000_000);
    }

    /**
     * Marks {@code history_ms} at the next pulse (the one that lays out the rows just added), then
     * scrolls or quits when asked to. FX thread.
     */
    void historyShown(Scene scene, javafx.scene.control.TableView<?> table) {
        if (!enabled()) {
            return;
        }
        write("history_rows " + table.getItems().size());
        Runnable[] listener = new Runnable[1];
        listener[0] = () -> {
            scene.removePostLayoutPulseListener(listener[0]);
            mark("history_ms");
            if (scroll) {
                new ScrollCheck(scene, table, this::scrolled).start();
            } else {
                done();
            }
        };
        scene.addPostLayoutPulseListener(listener[0]);
        Platform.requestNextPulse();
    }

    private void scrolled(ScrollCheck.Result r) {
        write(String.format(Locale.ROOT, "scroll_frames %d%nscroll_p50_ms %.1f%nscroll_p99_ms %.1f%nscroll_max_ms %.1f",
                r.frames(), r.p50Millis(), r.p99Millis(), r.maxMillis()));
        done();
    }

    private void done() {
        write("done 1");
        if (exit) {
            Platform.exit();
        }
    }

    private void write(String lines) {
        try {
            Files.writeString(file, lines + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("runboard: could not write the start-up report to " + file + ": " + e.getMessage());
        }
    }
}
