package dev.runboard.ui.detail;

import dev.runboard.artifact.TimeIndex;
import dev.runboard.session.OutputPreview;

/**
 * The times of the tail pane's lines: the preview's head and tail bytes give the byte offset of
 * each line they hold, the session's {@link TimeIndex} the time of each offset. The pane's lines
 * are the head's lines from the top and the tail's lines from the bottom (markers between them
 * have no time). Immutable: built off the FX thread, read by the cells.
 */
final class LineTimes {
    private static final String BLANK = " ".repeat(13);
    private final TimeIndex index;
    private final long[] headStarts; // line starts of the head, top down
    private final long[] tailStarts; // line starts of the tail, bottom up

    private LineTimes(TimeIndex index, long[] headStarts, long[] tailStarts) {
        this.index = index;
        this.headStarts = headStarts;
        this.tailStarts = tailStarts;
    }

    static LineTimes of(OutputPreview preview, TimeIndex index) {
        byte[] head = preview.headBytes();
        byte[] tail = preview.truncated() ? preview.tailBytes() : head;
        long tailBase = preview.truncated() ? preview.originalBytes() - tail.length : 0;
        long[] fromTop = starts(head, 0);
        long[] up = starts(tail, tailBase);
        long[] fromBottom = new long[up.length];
        for (int i = 0; i < up.length; i++) {
            fromBottom[i] = up[up.length - 1 - i];
        }
        return new LineTimes(index, fromTop, fromBottom);
    }

    /** Offsets where lines start in {@code bytes} (at {@code base}): its first byte and after each newline but a final one. */
    private static long[] starts(byte[] bytes, long base) {
        if (bytes.length == 0) {
            return new long[0];
        }
        long[] out = new long[1 + dev.runboard.artifact.Newlines.count(bytes, 0, bytes.length - 1)];
        int n = 0;
        out[n++] = base;
        for (int i = 0; i < bytes.length - 1; i++) {
            if (bytes[i] == '\n') {
                out[n++] = base + i + 1;
            }
        }
        return out;
    }

    /**
     * The gutter text of line {@code i} of {@code n} shown lines: {@code HH:MM:SS.mmm } or as many
     * spaces when its time is not known (a marker, or past the index so far).
     */
    String stamp(int i, int n) {
        long offset = -1;
        int fromBottom = n - 1 - i;
        boolean skipped = n > OutputTailLines.MAX_LINES; // only the first lines of the head are shown
        if (fromBottom >= 0 && fromBottom < tailStarts.length) {
            offset = tailStarts[fromBottom];
        } else if (i < headStarts.length && (!skipped || i < OutputTailLines.HEAD_LINES)) {
            offset = headStarts[i];
        }
        long millis = offset < 0 ? -1 : index.timeOf(offset);
        return millis < 0 ? BLANK : TimeIndex.stamp(millis) + " ";
    }
}
