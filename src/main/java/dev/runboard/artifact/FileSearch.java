package dev.runboard.artifact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Regex search over a whole file, on the bytes themselves. A literal query (no regex
 * metacharacters; any case-sensitive one, or a case-insensitive ASCII one) is found in the raw
 * bytes by {@link LiteralScan}, without building strings. A regex with a required literal (like
 * {@code ERROR \d+}) runs only on the lines holding that literal, found the same way. Otherwise the
 * file is read in 8 MB chunks cut at line ends, and other ASCII regexes run over each line of the
 * chunk in turn; either way the text handed to the regex is a Latin-1 string (one char
 * per byte, a plain copy), so match positions are byte offsets. A non-ASCII regex, or a
 * case-insensitive non-ASCII literal, decodes each line (slower, exact). Every mode counts matches
 * (leftmost, non-overlapping), not lines: the viewer's "n of N" steps through each of them.
 * In the byte modes {@code .} stands for one byte, so it matches part of a multi-byte character.
 *
 * <p>Every regex mode matches each line as its own subject, as grep(1) does: a match never runs into the
 * next line, {@code \A}, {@code \z}, {@code ^} and {@code $} hold at each line's start and end, and
 * the end of a file after its final newline is not a line (so {@code $} or an empty regex does not
 * report a line past the last one). A match's offset is therefore always on its own line: a
 * zero-width match at a line's end sits on that line's '\n', which belongs to it. (A literal holding a
 * newline, which only a command line can type, is found across lines, on the line where it starts.)
 */
public final class FileSearch {
    static final int MAX_KEPT = 1_000_000;
    static final int CHUNK = 8 << 20;
    private static final String META = "\\^$.|?*+()[]{}";
    private static final Pattern INLINE_FLAGS = Pattern.compile("\\(\\?[idmsuxU-]");

    public record Query(String text, boolean caseSensitive) {
        /** The pattern for decoded text (what the cells highlight). */
        public Pattern displayPattern() {
            return Pattern.compile(text, Pattern.UNIX_LINES
                    | (caseSensitive ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
        }
    }

    public interface Progress {
        void update(long scanned, long size, long matches);

        boolean cancelled();
    }

    /**
     * @param count matches found
     * @param offsets sorted byte offsets of the first {@value #MAX_KEPT} matches (in decoding mode, the line's start plus the match's ordinal)
     * @param complete false when cancelled
     */
    public record Result(long count, long[] offsets, boolean complete) {
    }

    private final Query query;
    private long count;
    private long[] kept = new long[1024];
    private int keptCount;

    public FileSearch(Query query) {
        this.query = query;
        query.displayPattern(); // a bad regex fails here, on the caller's thread, with its message
    }

    public Result run(Path path, Progress progress) throws IOException {
        String text = query.text();
        boolean ascii = text.chars().allMatch(c -> c < 0x80);
        boolean literal = text.chars().noneMatch(c -> META.indexOf(c) >= 0);
        if (literal && !text.isEmpty() && (query.caseSensitive() || ascii)) {
            boolean done = new LiteralScan(text.getBytes(StandardCharsets.UTF_8), !query.caseSensitive())
                    .run(path, progress, this::found, () -> count);
            return result(done);
        }
        Mode mode;
        if (ascii) {
            int flags = Pattern.UNIX_LINES | (query.caseSensitive() ? 0 : Pattern.CASE_INSENSITIVE);
            Pattern p = Pattern.compile(text, flags);
            String lit = requiredLiteral(text);
            if (lit != null) {
                return result(filteredRegex(path, p, lit, progress));
            }
            mode = new LineRegexMode(p);
        } else {
            mode = new DecodingMode(Pattern.compile(text, Pattern.UNIX_LINES
                    | (query.caseSensitive() ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)));
        }
        byte[] buf = new byte[CHUNK];
        ByteBuffer bb = ByteBuffer.wrap(buf);
        try (FileChannel ch = dev.runboard.session.OutputFile.open(path)) {
            long size = ch.size();
            long pos = Math.min(dev.runboard.session.OutputFile.start(ch), size); // file offset of buf[0]: past what max_output dropped
            int filled = 0;
            long read = pos;
            while (read < size) {
                if (progress.cancelled()) {
                    return result(false);
                }
                bb.clear().position(filled);
                int n = ch.read(bb, read);
                if (n < 0) {
                    break;
                }
                read += n;
                filled += n;
                boolean last = read >= size;
                int end = last ? filled : Newlines.lastIndexOf(buf, 0, filled) + 1;
                if (end <= 0) {
                    end = filled; // one line longer than the chunk: searched in pieces
                }
                mode.scan(buf, end, pos);
                System.arraycopy(buf, end, buf, 0, filled - end);
                pos += end;
                filled -= end;
                progress.update(read, size, count);
            }
            if (filled > 0) {
                mode.scan(buf, filled, pos);
            }
            progress.update(size, size, count);
        }
        return result(true);
    }

    /**
     * A regex with a literal every match holds: the literal is found as a literal query is (by
     * {@link LiteralScan}, in parts side by side over a big file), and the regex runs only on the
     * lines holding it, each read through one {@link LineWindow} and made a string alone. Reading the
     * file in chunks and scanning each for the literal on one thread, as this did, ran at a quarter
     * of GNU grep's speed (docs/BENCHMARKS.md §9.2). With the query's case folded, the literal is
     * found in either case of its ASCII letters, which is what the regex matches.
     *
     * @return false when cancelled
     */
    private boolean filteredRegex(Path path, Pattern p, String literal, Progress progress) throws IOException {
        Matcher m = p.matcher("");
        try (FileChannel ch = dev.runboard.session.OutputFile.open(path)) {
            LineWindow lines = new LineWindow(ch, Math.min(dev.runboard.session.OutputFile.start(ch), ch.size()));
            LiteralScan scan = new LiteralScan(literal.getBytes(StandardCharsets.ISO_8859_1), !query.caseSensitive());
            return scan.run(ch, progress, offset -> { // the file opened once, for the scan and the lines
                LineWindow.Line line;
                try {
                    line = lines.lineAt(offset);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                if (line != null) { // null: a line already matched (the literal twice on it)
                    m.reset(new String(lines.bytes(), line.start(), line.end() - line.start(), StandardCharsets.ISO_8859_1));
                    while (m.find()) {
                        found(line.offset() + m.start());
                    }
                }
            }, () -> count);
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private Result result(boolean complete) {
        return new Result(count, Arrays.copyOf(kept, keptCount), complete);
    }

    private void found(long offset) {
        count++;
        if (keptCount < MAX_KEPT) {
            if (keptCount == kept.length) {
                kept = Arrays.copyOf(kept, Math.min(MAX_KEPT, keptCount * 2));
            }
            kept[keptCount++] = offset;
        }
    }

    private interface Mode {
        /** Searches {@code bytes[0, len)}, whole lines (but for a line longer than the chunk), at file offset {@code base}. */
        void scan(byte[] bytes, int len, long base);
    }

    /**
     * Runs the regex on each line of the chunk, the chunk made a string once: each line is a region
     * of it with opaque, anchoring bounds, so the regex sees that line alone (as a string of its own
     * would be seen) without a string per line. Over the whole chunk at once a match could start on
     * one line and end on the next, {@code \z} would hold only at the chunk's end and {@code $} also
     * after the final newline, on no line.
     */
    private final class LineRegexMode implements Mode {
        private final Matcher m;

        LineRegexMode(Pattern p) {
            m = p.matcher("");
        }

        @Override
        public void scan(byte[] bytes, int len, long base) {
            m.reset(new String(bytes, 0, len, StandardCharsets.ISO_8859_1));
            int start = 0;
            while (start < len) {
                int nl = Newlines.indexOf(bytes, start, len);
                int end = nl < 0 ? len : nl;
                m.region(start, end);
                while (m.find()) {
                    found(base + m.start());
                }
                start = end + 1;
            }
        }
    }

    /** Decodes each line as UTF-8 for patterns that need real characters; offsets are line start + ordinal. */
    private final class DecodingMode implements Mode {
        private final Matcher m;

        DecodingMode(Pattern p) {
            m = p.matcher("");
        }

        @Override
        public void scan(byte[] bytes, int len, long base) {
            int start = 0;
            while (start < len) {
                int nl = Newlines.indexOf(bytes, start, len);
                int end = nl < 0 ? len : nl;
                m.reset(new String(bytes, start, end - start, StandardCharsets.UTF_8));
                int k = 0;
                while (m.find()) {
                    found(base + start + Math.min(k++, Math.max(0, end - start - 1)));
                }
                start = end + 1;
            }
        }
    }

    /** The UTF-8 bytes of {@code s} as one char per byte. */
    public static String latin1(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /**
     * The longest run of literal characters every match must contain (at least 2), or null: a
     * conservative reading of the pattern that gives up on alternation and skips groups and classes.
     */
    public static String requiredLiteral(String re) {
        if (re.indexOf('|') >= 0 || re.contains("\\Q") || INLINE_FLAGS.matcher(re).find()) {
            return null; // an inline flag such as (?i) or (?x) changes what a literal in the pattern matches
        }
        StringBuilder cur = new StringBuilder();
        String best = "";
        for (int i = 0; i < re.length(); i++) {
            char c = re.charAt(i);
            switch (c) {
                case '(' -> {
                    best = longer(best, cur);
                    i = skipGroup(re, i);
                }
                case '[' -> {
                    best = longer(best, cur);
                    i = skipClass(re, i);
                }
                case '\\' -> {
                    if (i + 1 >= re.length()) {
                        return null;
                    }
                    char n = re.charAt(++i);
                    if (Character.isLetterOrDigit(n)) {
                        best = longer(best, cur); // \d, \w, \b, \1 … are not literal
                    } else {
                        cur.append(n);
                    }
                }
                case '*', '?' -> {
                    dropLast(cur);
                    best = longer(best, cur);
                }
                case '{' -> {
                    dropLast(cur);
                    best = longer(best, cur);
                    int close = re.indexOf('}', i);
                    i = close < 0 ? re.length() : close;
                }
                case '.', '^', '$', '+', ')', ']', '}' -> best = longer(best, cur);
                default -> cur.append(c);
            }
        }
        best = longer(best, cur);
        return best.length() >= 2 ? latin1(best) : null;
    }

    private static void dropLast(StringBuilder cur) {
        if (cur.length() > 0) {
            cur.setLength(cur.length() - 1);
        }
    }

    private static String longer(String best, StringBuilder cur) {
        String c = cur.toString();
        cur.setLength(0);
        return c.length() > best.length() ? c : best;
    }

    private static int skipGroup(String re, int open) {
        int depth = 0;
        for (int i = open; i < re.length(); i++) {
            char c = re.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                i = skipClass(re, i);
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return re.length();
    }

    private static int skipClass(String re, int open) {
        int i = open + 1;
        if (i < re.length() && re.charAt(i) == '^') {
            i++;
        }
        if (i < re.length() && re.charAt(i) == ']') {
            i++;
        }
        for (; i < re.length(); i++) {
            char c = re.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == ']') {
                return i;
            }
        }
        return re.length();
    }
}
