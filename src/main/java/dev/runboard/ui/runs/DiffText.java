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

    static DiffText compare(Path older, String olderLabel, Path newer, String newerLabel, boolean ignoreVolatile)
            throws IOException {
        Lines out = new Lines();
        UnifiedDiff diff = new UnifiedDiff(out);
        diff.header(olderLabel, newerLabel);
        boolean same = LineDiff.compare(older, newer, ignoreVolatile, diff);
        diff.finish();
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

    /** Splits what the diff writes into lines, keeping the first MAX_LINES. */
    private static final class Lines extends OutputStream {
        final List<String> lines = new ArrayList<>();
        final ByteArrayOutputStream line = new ByteArrayOutputStream();
        boolean cut;

        @Override
        public void write(int b) {
            if (b == '\n') {
                keep();
            } else if (lines.size() < MAX_LINES) {
                line.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            int start = off;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    if (lines.size() < MAX_LINES) {
                        line.write(b, start, i - start);
                    }
                    keep();
                    start = i + 1;
                }
            }
            if (start < off + len && lines.size() < MAX_LINES) {
                line.write(b, start, off + len - start);
            }
        }

        private void keep() {
            if (lines.size() < MAX_LINES) {
                lines.add(line.toString(StandardCharsets.UTF_8));
            } else {
                cut = true;
            }
            line.reset();
        }

        @Override
        public void flush() {
            if (line.size() > 0) {
                keep();
            }
        }
    }
}
