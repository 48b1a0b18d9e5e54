package dev.runboard.artifact;

import java.util.ArrayList;
import java.util.List;

/**
 * Computes the page of lines to show for each way of moving through a file: by byte offset, so
 * the end of a file is reached without the line index, and line numbers are filled in wherever
 * the index already reaches. Runs on the viewer's worker thread.
 */
public final class PageReader {
    /** What the view shows: the first line's offset and the lines of the page. */
    public record Page(long anchor, List<ViewerLine> lines, long fileSize, int focusRow) {
        public long number() {
            return lines.isEmpty() ? -1 : lines.get(0).number();
        }
    }

    private final ArtifactFile file;
    private final LineIndex index;

    public PageReader(ArtifactFile file, LineIndex index) {
        this.file = file;
        this.index = index;
    }

    public Page top(int rows) {
        file.refreshSize();
        return read(file.start(), rows, -1);
    }

    public Page end(int rows) {
        file.refreshSize();
        return read(maxAnchor(rows), rows, -1);
    }

    /** The page starting at {@code anchor} again (the file may have grown, the index may know more numbers). */
    public Page at(long anchor, int rows) {
        file.refreshSize();
        return read(Math.min(anchor, maxAnchor(rows)), rows, -1);
    }

    public Page scroll(long anchor, int delta, int rows) {
        file.refreshSize();
        long pos = anchor;
        if (delta > 0) {
            long max = maxAnchor(rows);
            for (int i = 0; i < delta && pos < max; i++) {
                pos = file.nextLineStart(pos);
            }
            pos = Math.min(pos, max);
        } else {
            for (int i = 0; i < -delta && pos > file.start(); i++) {
                pos = file.previousLineStart(pos);
            }
        }
        return read(pos, rows, -1);
    }

    /** The page at a fraction of the file's bytes (the scroll bar). */
    public Page fraction(double f, int rows) {
        file.refreshSize();
        long offset = file.start() + (long) (Math.max(0, Math.min(1, f)) * (file.size() - file.start()));
        long start = offset >= file.size() ? file.lastLineStart() : file.lineStartBefore(offset + 1);
        return read(Math.min(start, maxAnchor(rows)), rows, -1);
    }

    /** The page showing the line holding byte {@code offset} a third down, that line focused. */
    public Page around(long offset, int rows) {
        file.refreshSize();
        long start = Math.min(file.lineStartBefore(Math.min(offset, file.size())), file.lastLineStart());
        return focused(start, rows);
    }

    /** Line {@code line} (0-based) focused, or null when the index has not reached it yet. */
    public Page line(long line, int rows) {
        file.refreshSize();
        long offset = offsetOfLine(line);
        return offset < 0 ? null : focused(offset, rows);
    }

    private Page focused(long start, int rows) {
        long anchor = start;
        int above = rows / 3;
        for (int i = 0; i < above && anchor > file.start(); i++) {
            anchor = file.previousLineStart(anchor);
        }
        anchor = Math.min(anchor, maxAnchor(rows));
        return read(anchor, rows, start);
    }

    private Page read(long anchor, int rows, long focusStart) {
        long number = numberAt(anchor);
        List<ViewerLine> lines = new ArrayList<>(rows);
        long pos = anchor;
        int focus = -1;
        long size = file.size();
        while (lines.size() < Math.max(1, rows) && pos < size) {
            ViewerLine l = file.line(pos, number);
            if (l.start() == focusStart) {
                focus = lines.size();
            }
            lines.add(l);
            pos = l.next();
            number = number < 0 ? -1 : number + 1;
        }
        return new Page(anchor, List.copyOf(lines), size, focus);
    }

    /** The first line of the last full page. */
    private long maxAnchor(int rows) {
        long pos = file.lastLineStart();
        for (int i = 1; i < rows && pos > 0; i++) {
            pos = file.previousLineStart(pos);
        }
        return pos;
    }

    /** The 0-based number of the line starting at {@code offset}, or -1 while the index has not got there. */
    public long numberAt(long offset) {
        if (!index.covers(offset)) {
            return -1;
        }
        long[] cp = index.checkpointAtOrBefore(offset);
        return cp[1] + file.countNewlines(cp[0], offset);
    }

    /** The offset of line {@code line} (0-based), or -1 when the index has not reached it. */
    public long offsetOfLine(long line) {
        long known = index.done() ? totalLines() : index.lines();
        if (line < 0 || line >= known) {
            return -1;
        }
        long[] cp = index.checkpointAtOrBeforeLine(line);
        long pos = cp[0];
        for (long n = cp[1]; n < line; n++) {
            pos = file.nextLineStart(pos);
        }
        return pos;
    }

    /** Lines in the file once the index is done (a last line without a final newline counts). */
    public long totalLines() {
        long size = file.size();
        long lines = index.lines();
        return size > 0 && index.scannedBytes() == size && file.byteAt(size - 1) != '\n' ? lines + 1 : lines;
    }
}
