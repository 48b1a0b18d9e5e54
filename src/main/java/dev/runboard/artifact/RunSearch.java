package dev.runboard.artifact;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A regex over the outputs of many runs (the CLI's {@code grep}, the window's "Search all runs"):
 * each file is searched by the viewer's own {@link FileSearch} (literal prefilter in the bytes,
 * the regex only on lines that can match), then each match is turned into its line: number and
 * text, read through an {@link ArtifactFile} that counts newlines eight bytes at a time.
 */
public final class RunSearch {
    /** Lines listed per run; past that a run only says how many more it has. */
    public static final int MAX_LINES_PER_RUN = 10_000;

    /** One run's output to search. */
    public record Run(String id, String command, Instant startedAt, Path file) {
    }

    /**
     * @param number 1-based line number (as grep -n prints it)
     * @param offset byte offset of the line's start (where the viewer opens)
     * @param text the line, at most {@link ArtifactFile#LINE_LIMIT} bytes of it
     * @param cutBytes bytes of the line left out of {@code text} (0 when it is whole)
     */
    public record Line(long number, long offset, String text, long cutBytes) {
    }

    /** The lines of one run that match, and how many more matched past {@link #MAX_LINES_PER_RUN}. */
    public record RunMatches(Run run, List<Line> lines, long moreLines) {
    }

    private final FileSearch.Query query;

    /** @throws java.util.regex.PatternSyntaxException for a bad regex, before anything is read */
    public RunSearch(FileSearch.Query query) {
        this.query = query;
        query.displayPattern();
    }

    /**
     * Searches the runs, handing each run with matches to {@code found} in the order given, as soon as
     * it and those before it are done; runs whose file cannot be read go to {@code trouble}. Stops early
     * when {@code cancelled}. Runs are searched side by side, one per core, a few ahead of the one handed
     * over: over many small runs (a day of test suites) the search of each is short and the cores idle
     * in turn (50 runs of 1.5 MB took 3.3x GNU grep -rn over the same files on one thread; docs/BENCHMARKS.md
     * §9.2). A big run is split over the cores by its own scan.
     */
    public void search(List<Run> runs, Consumer<RunMatches> found, Consumer<String> trouble, BooleanSupplier cancelled) {
        int threads = Math.min(runs.size(), Runtime.getRuntime().availableProcessors());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "runboard-run-search");
            t.setDaemon(true);
            return t;
        });
        try {
            java.util.ArrayDeque<java.util.concurrent.Future<Outcome>> ahead = new java.util.ArrayDeque<>();
            java.util.Iterator<Run> next = runs.iterator();
            while (next.hasNext() || !ahead.isEmpty()) {
                while (next.hasNext() && ahead.size() < 2 * threads) {
                    Run run = next.next();
                    ahead.add(pool.submit(() -> outcome(run, cancelled)));
                }
                if (cancelled.getAsBoolean()) {
                    return;
                }
                Outcome o = ahead.remove().get();
                if (o.matches() != null) {
                    found.accept(o.matches());
                } else if (o.trouble() != null) {
                    trouble.accept(o.trouble());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error; // a regex that overflowed the stack on a long line, as on the caller's thread
            }
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** What one run's search came to: its matches, a problem to say, or neither (no match, or no output kept). */
    private record Outcome(RunMatches matches, String trouble) {
    }

    private Outcome outcome(Run run, BooleanSupplier cancelled) {
        if (cancelled.getAsBoolean() || run.file() == null || !Files.exists(run.file(), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return new Outcome(null, null); // a run with no output kept (pruned, or it fit the preview before captures were kept)
        }
        try {
            return new Outcome(search(run, cancelled), null);
        } catch (IOException | java.io.UncheckedIOException e) {
            return new Outcome(null, "could not read the output of " + run.id() + " (" + run.file() + "): " + e.getMessage());
        }
    }

    /** The matching lines of one run, or null when it has none. */
    public RunMatches search(Run run, BooleanSupplier cancelled) throws IOException {
        FileSearch.Result result = new FileSearch(query).run(run.file(), new FileSearch.Progress() {
            @Override
            public void update(long scanned, long size, long matches) {
            }

            @Override
            public boolean cancelled() {
                return cancelled.getAsBoolean();
            }
        });
        if (result.count() == 0) {
            return null;
        }
        List<Line> lines = new ArrayList<>();
        long more = 0;
        try (ArtifactFile file = new ArtifactFile(run.file())) {
            long counted = 0; // offset up to which newlines are counted
            long number = 0; // 0-based number of the line starting at counted
            long lastStart = -1;
            for (long offset : result.offsets()) {
                // A match's offset is on its line (FileSearch), a zero-width one at its end included: on that '\n'.
                long start = file.lineStartBefore(offset);
                if (start == lastStart) {
                    continue; // another match on the same line
                }
                lastStart = start;
                if (lines.size() >= MAX_LINES_PER_RUN) {
                    more++;
                    continue;
                }
                number += file.countNewlines(counted, start);
                counted = start;
                ViewerLine line = file.line(start, number);
                lines.add(new Line(number + 1, start, line.text(), line.cutBytes()));
            }
        }
        return new RunMatches(run, List.copyOf(lines), more);
    }
}
