package dev.runboard.artifact;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A {@link LiteralScan} of a big file in parts side by side: the file is cut into one range of
 * match starts per core; the first is scanned on the calling thread, which reports its matches as
 * it finds them, each other one on a thread of its own, which keeps its matches' offsets (up to
 * {@link #CAP}). The calling thread then reports each part's offsets in turn, so the matches still
 * arrive in file order, exactly as one scan from the start would find them.
 *
 * <p>Two things can make a part's own matches differ from that one scan's, and the merge mends
 * both. A match may start just before a part and reach into it; then the matches a part found at
 * its very start may overlap it (with a literal like "aa"), so the merge scans on from that
 * match's end itself until it reaches a match the part found too, from which on the two agree. And
 * a part that found more than {@code CAP} matches stopped there; the merge scans the rest of it.
 * A literal that is everywhere thus costs a scan on one thread, as before; a rare one, the usual
 * search, a part per core. A scan of 1 GB took 0.29 s on one thread of a window that compiles
 * with C1 only (0.22 s with C2), and 0.19-0.22 s in two parts (docs/BENCHMARKS.md §14).
 */
final class SplitScan {
    /** Below this a part is not worth its thread. */
    static final long MIN_PART = 16 << 20;
    /** Offsets a part keeps (8 MB of them): as many as a search keeps in all ({@link FileSearch#MAX_KEPT}). */
    static final int CAP = FileSearch.MAX_KEPT;
    private static final int PROGRESS_EVERY = 8 << 20;

    private final LiteralScan scan;
    private final FileChannel ch;
    private final long size;
    /** Where the scan starts: 0, or the first whole line a capture kept to max_output keeps. */
    private final long start;
    private final int parts;
    private final int cap;
    /** Set when the calling thread is done (or failed): the parts' threads stop at their next piece. */
    private final AtomicBoolean over = new AtomicBoolean();
    /** Bytes the parts' threads read, for the progress the calling thread reports. */
    private final AtomicLong partsRead = new AtomicLong();

    SplitScan(LiteralScan scan, FileChannel ch, long size, int parts, int cap) {
        this(scan, ch, 0, size, parts, cap);
    }

    SplitScan(LiteralScan scan, FileChannel ch, long start, long size, int parts, int cap) {
        this.scan = scan;
        this.ch = ch;
        this.size = size;
        this.start = Math.min(start, size);
        this.parts = (int) Math.max(1, Math.min(parts, (size - this.start) / scan.length())); // no part narrower than the literal
        this.cap = Math.max(1, cap);
    }

    /** One part per core, each at least {@link #MIN_PART}. */
    static int partsFor(long size) {
        return (int) Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), size / MIN_PART));
    }

    /** Scans, the calling thread reading into {@code piece} (one of {@link LiteralScan#newPiece}'s size) for its part and every merge. */
    boolean run(FileSearch.Progress progress, LongConsumer found, LongSupplier count, byte[] piece) throws IOException {
        BooleanSupplier cancelled = () -> over.get() || progress.cancelled();
        List<Part> others = new ArrayList<>();
        for (int k = 1; k < parts; k++) {
            others.add(new Part(start + (size - start) * k / parts, start + (size - start) * (k + 1) / parts, cancelled));
        }
        try {
            others.forEach(Part::start);
            InOrder out = new InOrder(found, progress, count);
            if (!scan.scanRange(ch, start, parts == 1 ? size : others.get(0).from, size, piece, progress::cancelled, out, out::read)) {
                return false;
            }
            for (Part part : others) {
                if (!merge(part, out, piece)) {
                    return false;
                }
            }
            progress.update(size, size, count.getAsLong());
            return true;
        } finally {
            over.set(true);
            for (Part part : others) {
                part.join();
            }
        }
    }

    /** Reports one part's matches after every earlier part's; false when cancelled. */
    private boolean merge(Part part, InOrder out, byte[] piece) throws IOException {
        part.await(out);
        if (part.cancelled) {
            return false;
        }
        int i = 0;
        if (out.next > part.from) {
            // The last match reported reaches into this part: scan on from its end until a match the
            // part found too (from there on the part's matches are the ones a single scan finds).
            int[] at = {0};
            boolean[] met = {false};
            boolean done = scan.scanRange(ch, out.next, part.to, size, piece, out.progress::cancelled, offset -> {
                while (at[0] < part.count && part.offsets[at[0]] < offset) {
                    at[0]++;
                }
                if (at[0] < part.count && part.offsets[at[0]] == offset) {
                    met[0] = true;
                    return false;
                }
                return out.accept(offset);
            }, n -> { });
            if (!done) {
                return false;
            }
            if (!met[0]) {
                return true; // that scan went to the part's end: every match of it is reported
            }
            i = at[0];
        }
        for (; i < part.count; i++) {
            out.accept(part.offsets[i]);
        }
        if (part.resumeAt >= 0) { // the part stopped at its cap: the rest of it from here
            return scan.scanRange(ch, part.resumeAt, part.to, size, piece, out.progress::cancelled, out, out::read);
        }
        return true;
    }

    /** The calling thread's sink: reports each match, remembers where the next may start, reports progress. */
    private final class InOrder implements LiteralScan.Sink {
        final FileSearch.Progress progress;
        private final LongConsumer found;
        private final LongSupplier count;
        /** Where the next match may start: after the last one reported. */
        long next;
        private long read;
        private long reported;

        InOrder(LongConsumer found, FileSearch.Progress progress, LongSupplier count) {
            this.found = found;
            this.progress = progress;
            this.count = count;
        }

        @Override
        public boolean accept(long offset) {
            found.accept(offset);
            next = offset + scan.length();
            return true;
        }

        void read(long n) {
            read += n;
            long scanned = Math.min(size, read + partsRead.get());
            if (scanned - reported >= PROGRESS_EVERY) {
                reported = scanned;
                progress.update(scanned, size, count.getAsLong());
            }
        }
    }

    /** One range of match starts, scanned on a thread of its own into the offsets it keeps. */
    private final class Part {
        final long from;
        final long to;
        private final BooleanSupplier stop;
        private final Thread thread;
        long[] offsets = new long[1024];
        int count;
        /** Where its scan stopped at the cap (the first match it did not keep), or -1. */
        long resumeAt = -1;
        /** Its scan ended because the search was cancelled (or the calling thread gave up). */
        boolean cancelled;
        private IOException failed;

        Part(long from, long to, BooleanSupplier stop) {
            this.from = from;
            this.to = to;
            this.stop = stop;
            this.thread = new Thread(this::scan, "runboard-search-part");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private void scan() {
            try {
                cancelled = !scan.scanRange(ch, from, to, size, scan.newPiece(), stop, offset -> {
                    if (count == cap) {
                        resumeAt = offset;
                        return false;
                    }
                    if (count == offsets.length) {
                        offsets = Arrays.copyOf(offsets, (int) Math.min(cap, 2L * count));
                    }
                    offsets[count++] = offset;
                    return true;
                }, partsRead::addAndGet);
            } catch (IOException e) {
                failed = e;
            }
        }

        /**
         * Waits for the part (its fields are read after the join, which orders them after its
         * writes), reporting everyone's progress meanwhile; its failure becomes the caller's.
         */
        void await(InOrder out) throws IOException {
            try {
                while (thread.isAlive()) {
                    thread.join(100);
                    out.read(0);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                over.set(true);
                join();
                cancelled = true;
            }
            if (failed != null) {
                throw failed;
            }
        }

        /** Waits until the part's thread ended (it stops at its next piece once {@code over} is set). */
        void join() {
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                    over.set(true);
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
