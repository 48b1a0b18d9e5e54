package dev.runboard.process;

import dev.runboard.session.AnsiText;
import dev.runboard.session.Sizes;
import dev.runboard.session.OutputRule;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads what a session wrote to its capture since the last scan and runs its output rules over
 * each complete line (colours stripped): it finds the matches, its {@link Matches} says what they
 * do. Not thread-safe: one session's {@link WatchedSession} uses it under its own lock.
 */
final class RuleScanner {
    /** Output read per scan; a flood beyond it is skipped (and said so), not queued. */
    private static final int SCAN_LIMIT = 16 << 20;
    private static final int MAX_LINE = 64 << 10;

    /** Told of what a scan found, as it finds it. */
    interface Matches {
        /** Output was skipped unread; {@code message} says how much and why. */
        void skipped(String message);

        /** {@code line} matched the rule at {@code index} of the spec's rules. */
        void matched(int index, OutputRule rule, String line);
    }

    private final List<OutputRule> rules;
    private final List<Pattern> patterns = new ArrayList<>();
    private final ByteArrayOutputStream carry = new ByteArrayOutputStream();
    private long scanned;

    RuleScanner(List<OutputRule> rules) {
        this.rules = List.copyOf(rules);
        rules.forEach(r -> patterns.add(r.compile()));
    }

    /** Scans the output written since the last scan; {@code last}: the command has exited, so an unfinished last line counts too. */
    void scan(Path capture, boolean last, Matches matches) {
        if (patterns.isEmpty() || capture == null) {
            return;
        }
        try (FileChannel ch = dev.runboard.session.OutputFile.open(capture)) {
            long size = ch.size();
            long start = dev.runboard.session.OutputFile.start(ch);
            if (scanned < start) { // max_output dropped what was not scanned yet: go on from the first whole line kept
                scanned = start;
                carry.reset();
            }
            if (size - scanned > SCAN_LIMIT) {
                long skip = size - SCAN_LIMIT - scanned;
                matches.skipped("output rules skipped " + Sizes.format(skip)
                        + " of a flood (they read at most " + Sizes.format(SCAN_LIMIT) + " a pass)");
                scanned += skip;
                carry.reset();
            }
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(size - scanned, 1 << 20));
            while (scanned < size) {
                buf.clear();
                int n = ch.read(buf, scanned);
                if (n <= 0) {
                    break;
                }
                scanned += n;
                byte[] a = buf.array();
                int from = 0;
                for (int i = 0; i < n; i++) {
                    if (a[i] == '\n') {
                        carry.write(a, from, i - from);
                        line(matches);
                        from = i + 1;
                    }
                }
                carry.write(a, from, n - from);
                if (carry.size() > MAX_LINE) {
                    line(matches); // a very long line is checked in pieces rather than held without bound
                }
            }
        } catch (IOException e) {
            return; // the capture moved at the end, or is unreadable: nothing to scan
        }
        if (last && carry.size() > 0) {
            line(matches);
        }
    }

    private void line(Matches matches) {
        String text = AnsiText.strip(carry.toString(StandardCharsets.UTF_8)).replace("\r", "");
        carry.reset();
        for (int i = 0; i < patterns.size(); i++) {
            if (patterns.get(i).matcher(text).find()) {
                matches.matched(i, rules.get(i), text);
            }
        }
    }
}
