package dev.runboard.ui.runs;

import dev.runboard.artifact.LineDiff;
import dev.runboard.artifact.UnifiedDiff;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two outputs made for the window (on a worker): the whole comparison streams
 * through, but only the first {@link #MAX_LINES} lines of the diff are kept to show.
 */
record DiffText(List<String> lines, boolean same, boolean cut, int firstChange) {
    static final int MAX_LINES = 20_000;
    /** Bytes of one diff line kept to show (as the viewer's limit); a longer line ends in {@link #CUT_MARK}. */
    static final int LINE_BYTES = dev.runboard.artifact.ArtifactFile.LINE_LIMIT;
    static final String CUT_MARK = " \u2026 (line cut)";

    static DiffText compare(Path older, String olderLabel, Path newer, String newerLabel, boolean ignoreVolatile)
            throws IOException {
        Lines out = new Lines();
        UnifiedDiff diff = new UnifiedDiff(out);
        diff.header(olderLabel, newerLabel);
        boolean same = LineDiff.compare(older, newer, ignoreVolatile, diff);
        out.flush();
        int first = -1;
        for (int i = 2; i < out.lines.size() && first < 0; i++) {
            char c = out.lines.get(i).isEmpty() ? ' ' : out.lines.get(i).charAt(0);
            if (c == '-' || c == '+') {
                first = i;
            }
        }
        return new DiffText(List.copyOf(out.lines), same, out.cut, first);
    }

    /** Splits what the diff writes into lines, keeping the first MAX_LINES, each up to LINE_BYTES. */
    private static final class Lines extends OutputStream {
        final List<String> lines = new ArrayList<>();
        final ByteArrayOutputStream line = new ByteArrayOutputStream();
        boolean cut;
        /** The line being split is longer than what is kept of it. */
        boolean lineCut;

        @Override
        public void write(int b) {
            if (b == '\n') {
                keep();
            } else {
                hold(new byte[] {(byte) b}, 0, 1);
            }
        }

        /** Keeps the start of a line only: a diff line may be gigabytes long. */
        private void hold(byte[] b, int off, int len) {
            if (lines.size() >= MAX_LINES) {
                return;
            }
            int room = LINE_BYTES - line.size();
            line.write(b, off, Math.min(len, room));
            lineCut |= len > room;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            int start = off;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    hold(b, start, i - start);
                    keep();
                    start = i + 1;
                }
            }
            if (start < off + len) {
                hold(b, start, off + len - start);
            }
        }

        private void keep() {
            if (lines.size() < MAX_LINES) {
                lines.add(line.toString(StandardCharsets.UTF_8) + (lineCut ? CUT_MARK : ""));
            } else {
                cut = true;
            }
            line.reset();
            lineCut = false;
        }

        @Override
        public void flush() {
            if (line.size() > 0) {
                keep();
            }
        }
    }
}
