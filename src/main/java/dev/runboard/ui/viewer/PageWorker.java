package dev.runboard.ui.viewer;

import dev.runboard.artifact.PageReader;
import dev.runboard.artifact.TimeIndex;
import dev.runboard.ui.common.UiTasks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The viewer's page reads, on one worker thread: only the newest request's page reaches the FX
 * thread, with the gutter's times read beside it when they are wanted. A remote output's pages
 * are round trips to its host, which is why none of this may run on the FX thread.
 */
final class PageWorker {
    private final Path file;
    private final BooleanSupplier stillWritten;
    private final UiTasks tasks;
    private final BiConsumer<PageReader.Page, TimeIndex> shown;
    private final Consumer<String> failed;
    private final AtomicLong generation = new AtomicLong();
    private final ExecutorService worker;
    private volatile PageReader reader;
    private volatile boolean timesWanted;
    private TimeIndex timesRead; // the worker's copy, read again while the file grows

    PageWorker(Path file, BooleanSupplier stillWritten, UiTasks tasks, BiConsumer<PageReader.Page, TimeIndex> shown,
               Consumer<String> failed) {
        this.file = file;
        this.stillWritten = stillWritten;
        this.tasks = tasks;
        this.shown = shown;
        this.failed = failed;
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "runboard-viewer-pages");
            t.setDaemon(true);
            return t;
        });
    }

    void reader(PageReader r) {
        reader = r;
    }

    /** The page reader, or null until the file is open. */
    PageReader reader() {
        return reader;
    }

    void timesWanted(boolean on) {
        timesWanted = on;
    }

    /** Runs work on the worker, in order with the page reads (opening a remote output). */
    void execute(Runnable work) {
        worker.execute(work);
    }

    /** Runs a page read on the worker; only the newest request's page is shown. */
    void request(Function<PageReader, PageReader.Page> read) {
        long gen = generation.incrementAndGet();
        worker.execute(() -> {
            if (gen != generation.get() || reader == null) {
                return; // a newer request came, or a remote output could not be opened (said in its notice)
            }
            try {
                PageReader.Page p = read.apply(reader);
                TimeIndex t = timesWanted ? readTimes() : null;
                if (p != null) {
                    tasks.fx(() -> {
                        if (gen == generation.get()) {
                            shown.accept(p, t);
                        }
                    });
                }
            } catch (RuntimeException e) {
                tasks.fx(() -> failed.accept("Cannot read the file: " + e.getMessage()));
            }
        });
    }

    /** On the worker: the file's time index, read once, or again on each page while the file grows. */
    private TimeIndex readTimes() {
        if (timesRead == null || stillWritten.getAsBoolean()) {
            try {
                timesRead = TimeIndex.read(file);
            } catch (IOException e) {
                timesRead = null;
            }
        }
        return timesRead;
    }

    /** No more pages; {@code last} (closing the file) runs after the read in flight. */
    void close(Runnable last) {
        generation.incrementAndGet();
        worker.execute(last);
        worker.shutdown();
    }
}
