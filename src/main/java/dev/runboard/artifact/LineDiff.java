package dev.runboard.artifact;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Compares two files of any size line by line in bounded memory. Both files stream through
 * {@link DiffLines}; lines are compared by their keys ({@link VolatileText}). While the lines agree,
 * both sides just advance; at a difference, up to {@link #WINDOW} lines of each side are read and
 * aligned by a longest-common-subsequence table, and the edits are taken up to a common line past
 * the middle of the windows (where the alignment no longer depends on lines not yet read); then
 * the windows refill. Within a window the diff is minimal; a change longer than a window is still
 * reported correctly, only perhaps as more edits than the least possible. The first difference is
 * always exact.
 */
public final class LineDiff {
    /** Lines per side aligned at once: the table is WINDOW² ints (16 MiB), the work per window WINDOW². */
    static final int WINDOW = 2048;
    /** How far (lines per side) to look for a common line past a window with none. */
    static final int LOOKAHEAD = 1 << 16;

    /** Told each line's fate, in order. */
    public interface Sink {
        void same(DiffLine a, DiffLine b) throws IOException;

        void deleted(DiffLine a) throws IOException;

        void inserted(DiffLine b) throws IOException;

        /** After the last line, while the files are still open: a line held back can still be printed. */
        void finish() throws IOException;
    }

    private final ArrayDeque<DiffLine> aWindow = new ArrayDeque<>();
    private final ArrayDeque<DiffLine> bWindow = new ArrayDeque<>();
    private int[] table = new int[0];
    /** How often the windows had nothing in common: which side to give up next. */
    private int lostSides;

    /** Streams the comparison of {@code a} and {@code b} into {@code sink}, then finishes it; true when they are the same. */
    public static boolean compare(Path a, Path b, boolean ignoreVolatile, Sink sink) throws IOException {
        try (DiffLines left = new DiffLines(a, new VolatileText(ignoreVolatile));
             DiffLines right = new DiffLines(b, new VolatileText(ignoreVolatile))) {
            return compare(left, right, sink);
        }
    }

    static boolean compare(DiffLines left, DiffLines right, Sink sink) throws IOException {
        boolean same = new LineDiff().run(left, right, sink);
        sink.finish();
        return same;
    }

    private boolean run(DiffLines left, DiffLines right, Sink sink) throws IOException {
        boolean same = true;
        while (true) {
            DiffLine a = aWindow.isEmpty() ? left.next() : aWindow.pollFirst();
            DiffLine b = bWindow.isEmpty() ? right.next() : bWindow.pollFirst();
            if (a == null && b == null) {
                return same;
            }
            if (a != null && b != null && a.sameAs(b) && a.newline() == b.newline()) {
                sink.same(a, b);
                continue;
            }
            same = false;
            if (a != null) {
                aWindow.addFirst(a);
            }
            if (b != null) {
                bWindow.addFirst(b);
            }
            align(left, right, sink);
        }
    }

    /** Tops the window up to {@code limit} lines; true when it now holds the rest of the file. */
    private static boolean fill(ArrayDeque<DiffLine> window, DiffLines lines, int limit) throws IOException {
        while (window.size() < limit) {
            DiffLine l = lines.next();
            if (l == null) {
                break;
            }
            window.addLast(l);
        }
        return lines.done();
    }

    private static DiffLine[] head(ArrayDeque<DiffLine> window, int count) {
        DiffLine[] lines = new DiffLine[Math.min(count, window.size())];
        int k = 0;
        for (DiffLine l : window) {
            if (k == lines.length) {
                break;
            }
            lines[k++] = l;
        }
        return lines;
    }

    /**
     * Aligns the two windows (starting at a difference) and hands out edits: all of them when the
     * windows hold the rest of both files, else those up to the last common line in the first half.
     */
    private void align(DiffLines left, DiffLines right, Sink sink) throws IOException {
        boolean aAll = fill(aWindow, left, WINDOW);
        boolean bAll = fill(bWindow, right, WINDOW);
        DiffLine[] a = head(aWindow, WINDOW);
        DiffLine[] b = head(bWindow, WINDOW);
        int n = a.length;
        int m = b.length;
        boolean toTheEnd = aAll && bAll && n == aWindow.size() && m == bWindow.size();
        if (!toTheEnd && anchor(a, b) == null) {
            lookFurther(left, right, sink);
            return;
        }
        int[] lcs = lcs(a, b);
        int w = m + 1;
        // Walk the alignment, remembering where it last stood just after a common line in the first half.
        int i = 0;
        int j = 0;
        int stopI = 0;
        int stopJ = 0;
        int firstI = -1;
        int firstJ = -1;
        while (i < n || j < m) {
            if (i < n && j < m && same(a[i], b[j])) {
                if (firstI < 0) {
                    firstI = i;
                    firstJ = j;
                }
                i++;
                j++;
                if (i <= (n + 1) / 2 && j <= (m + 1) / 2) {
                    stopI = i;
                    stopJ = j;
                }
            } else if (j == m || (i < n && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
                i++;
            } else {
                j++;
            }
        }
        if (toTheEnd) {
            stopI = n;
            stopJ = m;
        } else if (stopI == 0 && stopJ == 0) {
            if (firstI < 0) {
                lookFurther(left, right, sink);
                return;
            }
            // The first common line lies in the second half: the edits before it are sure, stop there.
            stopI = firstI;
            stopJ = firstJ;
        }
        emit(a, b, lcs, stopI, stopJ, sink);
    }

    /** Hands out the alignment's edits up to ({@code stopI}, {@code stopJ}) and drops those lines from the windows. */
    private void emit(DiffLine[] a, DiffLine[] b, int[] lcs, int stopI, int stopJ, Sink sink) throws IOException {
        int w = b.length + 1;
        int i = 0;
        int j = 0;
        while (i < stopI || j < stopJ) {
            if (i < stopI && j < stopJ && same(a[i], b[j])) {
                sink.same(a[i++], b[j++]);
            } else if (j == stopJ || (i < stopI && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
                sink.deleted(a[i++]);
            } else {
                sink.inserted(b[j++]);
            }
        }
        drop(i, j);
    }

    /**
     * Nothing in common within a window: a block longer than a window was inserted, deleted or
     * replaced. Reads further ahead on both sides (doubling, up to {@link #LOOKAHEAD} lines) for
     * the nearest line they share, and takes everything before it as deleted and inserted. With
     * nothing shared even then, gives up half of one side (the other side next time) and goes on.
     */
    private void lookFurther(DiffLines left, DiffLines right, Sink sink) throws IOException {
        for (int limit = 2 * WINDOW; ; limit *= 2) {
            boolean aAll = fill(aWindow, left, limit);
            boolean bAll = fill(bWindow, right, limit);
            DiffLine[] a = head(aWindow, limit);
            DiffLine[] b = head(bWindow, limit);
            int[] anchor = anchor(a, b);
            if (anchor != null) {
                take(anchor[0], anchor[1], a, b, sink);
                return;
            }
            if (aAll && bAll && a.length == aWindow.size() && b.length == bWindow.size()) {
                take(a.length, b.length, a, b, sink);
                return;
            }
            if (limit >= LOOKAHEAD) {
                boolean insert = a.length == 0 || (b.length > 0 && lostSides++ % 2 == 0);
                take(insert ? 0 : (a.length + 1) / 2, insert ? (b.length + 1) / 2 : 0, a, b, sink);
                return;
            }
        }
    }

    private void take(int deletes, int inserts, DiffLine[] a, DiffLine[] b, Sink sink) throws IOException {
        for (int i = 0; i < deletes; i++) {
            sink.deleted(a[i]);
        }
        for (int j = 0; j < inserts; j++) {
            sink.inserted(b[j]);
        }
        drop(deletes, inserts);
    }

    private void drop(int fromA, int fromB) {
        for (int k = 0; k < fromA; k++) {
            aWindow.pollFirst();
        }
        for (int k = 0; k < fromB; k++) {
            bWindow.pollFirst();
        }
    }

    /** The suffix LCS table: {@code t[i*(m+1)+j]} is the length of the LCS of a[i..] and b[j..]. */
    private int[] lcs(DiffLine[] a, DiffLine[] b) {
        int n = a.length;
        int m = b.length;
        int w = m + 1;
        int size = (n + 1) * w;
        if (table.length < size) {
            table = new int[size];
        }
        int[] t = table;
        for (int j = 0; j <= m; j++) {
            t[n * w + j] = 0;
        }
        for (int i = n - 1; i >= 0; i--) {
            int row = i * w;
            t[row + m] = 0;
            for (int j = m - 1; j >= 0; j--) {
                t[row + j] = same(a[i], b[j]) ? t[row + w + j + 1] + 1 : Math.max(t[row + w + j], t[row + j + 1]);
            }
        }
        return t;
    }

    /** The common pair (i, j) nearest the start (least i + j); null when the two share no line. */
    private static int[] anchor(DiffLine[] a, DiffLine[] b) {
        Map<Long, Integer> firstInB = new HashMap<>();
        for (int j = 0; j < b.length; j++) {
            firstInB.putIfAbsent(b[j].hash(), j);
        }
        int[] best = null;
        for (int i = 0; i < a.length && (best == null || i < best[0] + best[1]); i++) {
            Integer j = firstInB.get(a[i].hash());
            if (j != null && same(a[i], b[j]) && (best == null || i + j < best[0] + best[1])) {
                best = new int[] {i, j};
            }
        }
        return best;
    }

    private static boolean same(DiffLine a, DiffLine b) {
        return a.sameAs(b) && a.newline() == b.newline();
    }
}
