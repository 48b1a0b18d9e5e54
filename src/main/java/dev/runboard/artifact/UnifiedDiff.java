package dev.runboard.artifact;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@link LineDiff}'s edits as a unified diff ({@code diff -u}): hunks with three lines of
 * context, the bytes of each line as they are. A hunk is held until it closes (its header needs
 * its counts) in a {@link HunkBuffer}, which spills to a temporary file when it grows large: memory
 * stays bounded however large a change is. Also remembers where the first difference was.
 * Equal inputs write nothing at all, header included, as {@code diff(1)} does.
 */
public final class UnifiedDiff implements LineDiff.Sink {
    static final int CONTEXT = 3;

    private final OutputStream out;
    private final ArrayDeque<DiffLine> before = new ArrayDeque<>();
    private final HunkBuffer hunk = new HunkBuffer();
    private final List<DiffLine> trail = new ArrayList<>();
    private long aLine;
    private long bLine;
    private long hunkA;
    private long hunkB;
    private long countA;
    private long countB;
    private boolean open;
    private long firstA;
    private long firstB;
    /** The header's two lines, written before the first hunk: none is written when nothing differs. */
    private byte[] header = new byte[0];

    public UnifiedDiff(OutputStream out) {
        this.out = out;
    }

    /** The header naming the two sides, printed with the first hunk; call before the comparison. */
    public void header(String a, String b) {
        header = ("--- " + a + "\n+++ " + b + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The 1-based line numbers (old, new) of the first difference; zeros while there was none. */
    public long[] firstDifference() {
        return new long[] {firstA, firstB};
    }

    @Override
    public void same(DiffLine a, DiffLine b) throws IOException {
        aLine++;
        bLine++;
        if (!open) {
            before.addLast(a);
            if (before.size() > CONTEXT) {
                before.pollFirst();
            }
            return;
        }
        trail.add(a);
        if (trail.size() > 2 * CONTEXT) {
            // The change is over: close the hunk with its context; the next one may reuse the last lines.
            for (int k = 0; k < CONTEXT; k++) {
                line(' ', trail.get(k), true, true);
            }
            flush();
            for (int k = trail.size() - CONTEXT; k < trail.size(); k++) {
                before.addLast(trail.get(k));
            }
            trail.clear();
        }
    }

    @Override
    public void deleted(DiffLine a) throws IOException {
        change();
        aLine++;
        line('-', a, true, false);
    }

    @Override
    public void inserted(DiffLine b) throws IOException {
        change();
        bLine++;
        line('+', b, false, true);
    }

    /** Ends the diff: closes the open hunk (called by {@link LineDiff#compare} while long lines can still be read). */
    @Override
    public void finish() throws IOException {
        if (open) {
            for (int k = 0; k < Math.min(CONTEXT, trail.size()); k++) {
                line(' ', trail.get(k), true, true);
            }
            trail.clear();
            flush();
        }
        out.flush();
    }

    private void change() throws IOException {
        if (firstA == 0 && firstB == 0) {
            firstA = aLine + 1;
            firstB = bLine + 1;
        }
        if (!open) {
            open = true;
            hunkA = aLine - before.size() + 1;
            hunkB = bLine - before.size() + 1;
            for (DiffLine l : before) {
                line(' ', l, true, true);
            }
            before.clear();
        } else {
            for (DiffLine l : trail) {
                line(' ', l, true, true);
            }
            trail.clear();
        }
    }

    private void line(char mark, DiffLine l, boolean old, boolean current) throws IOException {
        hunk.write(mark);
        l.writeTo(hunk);
        hunk.write('\n');
        if (!l.newline()) {
            hunk.write("\\ No newline at end of file\n".getBytes(StandardCharsets.UTF_8));
        }
        countA += old ? 1 : 0;
        countB += current ? 1 : 0;
    }

    private void flush() throws IOException {
        out.write(header);
        header = new byte[0];
        out.write(("@@ -" + range(hunkA, countA) + " +" + range(hunkB, countB) + " @@\n").getBytes(StandardCharsets.UTF_8));
        hunk.drainTo(out);
        open = false;
        hunkA = aLine + 1;
        hunkB = bLine + 1;
        countA = 0;
        countB = 0;
    }

    /** GNU's form: "start,count", the count left out when 1, and an empty range starting at the line before. */
    private static String range(long start, long count) {
        if (count == 1) {
            return Long.toString(start);
        }
        return (count == 0 ? start - 1 : start) + "," + count;
    }
}
