package dev.runboard.session;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A bounded view of a session's output: its head and its tail, never more than the bound.
 *
 * <p>Kept as UTF-8 bytes (compact whatever the characters) and decoded on demand; a finished
 * session's preview is kept deflated ({@link #packed()}). The cut points
 * never split a UTF-8 sequence and prefer line boundaries; invalid bytes and NUL decode to U+FFFD;
 * ANSI escapes are kept for the UI to render.
 */
public final class OutputPreview {
    public static final OutputPreview EMPTY = new OutputPreview(new byte[0], new byte[0], 0, null);
    private static final char REPLACEMENT = '\uFFFD';

    private final PreviewPart head;
    private final PreviewPart tail;
    private final long originalBytes;
    /** Bytes of the output's start dropped to keep it to max_output: the head starts after them. */
    private final long dropped;
    /** What to show instead of nothing when the command wrote nothing (e.g. "timed out after 5 s"). */
    private final String note;
    /** Computed on first use; a benign race at worst computes it twice. */
    private volatile String lastLine;
    /** Where the parts are read back from when they are not held ({@link #summary}); null when they are. */
    private final Source source;

    private OutputPreview(byte[] head, byte[] tail, long originalBytes, String note) {
        this(PreviewPart.plain(head), PreviewPart.plain(tail), originalBytes, note);
    }

    private OutputPreview(PreviewPart head, PreviewPart tail, long originalBytes, String note) {
        this(head, tail, originalBytes, note, null);
    }

    private OutputPreview(PreviewPart head, PreviewPart tail, long originalBytes, String note, Source source) {
        this(head, tail, originalBytes, note, source, 0);
    }

    private OutputPreview(PreviewPart head, PreviewPart tail, long originalBytes, String note, Source source, long dropped) {
        this.dropped = dropped;
        this.head = head;
        this.tail = tail;
        this.originalBytes = originalBytes;
        this.note = note;
        this.source = source;
    }

    /** Reads a preview that is not held back from where it is kept (the session's record, its capture). */
    @FunctionalInterface
    public interface Source {
        OutputPreview read() throws IOException;
    }

    /**
     * A finished session's preview as its row needs it, without its bytes: the sizes, the note and
     * the last line, with {@code source} to read the parts back when the output is shown. A
     * finished session never changes, so ten thousand of them need only this much each; their
     * previews (up to the bound each, twice that as a String of non-Latin-1 text) stay on disk.
     * The parts' bytes ({@link #headBytes()}, {@link #text()}…) are read from {@code source} on each
     * call: that is file I/O, so a UI reads {@link #held()} once, off its UI thread.
     */
    public static OutputPreview summary(long originalBytes, int headLength, int tailLength, String note, String lastLine,
                                        Source source) {
        OutputPreview p = new OutputPreview(PreviewPart.elsewhere(headLength), PreviewPart.elsewhere(tailLength), originalBytes, note,
                java.util.Objects.requireNonNull(source));
        p.lastLine = lastLine;
        return p;
    }

    /**
     * The same preview of an output whose first {@code bytes} were dropped to keep it to max_output
     * (its head starts after them). The last line is kept as known.
     */
    public OutputPreview withDropped(long bytes) {
        if (bytes == dropped) {
            return this;
        }
        OutputPreview p = new OutputPreview(head, tail, originalBytes, note, source, bytes);
        p.lastLine = lastLine;
        return p;
    }

    /** Bytes of the output's start that were dropped to keep it to max_output (0: none). */
    public long droppedBytes() {
        return dropped;
    }

    /** Whether the parts' bytes are in memory; false for a {@link #summary}. */
    public boolean isHeld() {
        return source == null;
    }

    /** This preview with its bytes: itself when held, else read back from its source (file I/O). */
    public OutputPreview held() throws IOException {
        return source == null ? this : source.read();
    }

    private OutputPreview readBack() {
        try {
            return source.read();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not read the output back: " + e.getMessage(), e);
        }
    }

    private OutputPreview(byte[] head, byte[] tail, long originalBytes) {
        this(head, tail, originalBytes, null);
    }

    /** An empty output that says why it is empty; it counts zero bytes. */
    public static OutputPreview noteOnly(String note) {
        return new OutputPreview(new byte[0], new byte[0], 0, note);
    }

    /** Reads the preview of a whole file: O(bound) whatever the file's size. */
    public static OutputPreview read(Path file, int bound) throws IOException {
        try (FileChannel ch = OutputFile.open(file)) {
            return read(ch, ch.size(), bound);
        }
    }

    /** Reads the preview of the first {@code size} bytes of an open channel (positional reads; the channel's position is untouched). */
    public static OutputPreview read(FileChannel ch, long size, int bound) throws IOException {
        long start = Math.min(OutputFile.start(ch), size); // past what max_output dropped
        if (size - start <= bound) {
            return new OutputPreview(readAt(ch, start, (int) (size - start)), new byte[0], size).withDropped(start);
        }
        return new OutputPreview(readHead(ch, start, headBytes(bound)), readTail(ch, size, bound - headBytes(bound)), size)
                .withDropped(start);
    }

    /**
     * As {@link #read(FileChannel, long, int)} for a file that only grew since {@code before} was
     * read from it: once the output outgrew the bound its head is fixed, so only the tail is read.
     */
    public static OutputPreview readGrown(FileChannel ch, long size, int bound, OutputPreview before) throws IOException {
        if (before == null || !before.truncated() || size < before.originalBytes || size <= bound
                || OutputFile.start(ch) != before.dropped) { // max_output dropped more: the head moved
            return read(ch, size, bound);
        }
        return new OutputPreview(before.head, PreviewPart.plain(readTail(ch, size, bound - headBytes(bound))), size, null)
                .withDropped(before.dropped);
    }

    /** Builds a preview from bytes held in memory (tests, re-adopted records). */
    public static OutputPreview of(byte[] whole, int bound) {
        if (whole.length <= bound) {
            return new OutputPreview(whole.clone(), new byte[0], whole.length);
        }
        int headLen = headBytes(bound);
        int tailLen = bound - headLen;
        byte[] head = cutHead(java.util.Arrays.copyOf(whole, headLen));
        byte[] tail = cutTail(java.util.Arrays.copyOfRange(whole, whole.length - tailLen, whole.length));
        return new OutputPreview(head, tail, whole.length);
    }

    /** An eighth of the bound for the head (8 KiB of 64 KiB): the start of a log says what ran, the end says how it ended. */
    static int headBytes(int bound) {
        return bound / 8;
    }

    /** Rebuilds a finished session's preview from its stored parts (see {@link #headBytes()}, {@link #tailBytes()}, {@link #note()}), packed. */
    public static OutputPreview restore(byte[] head, byte[] tail, long originalBytes, String note) {
        return new OutputPreview(head.clone(), tail.clone(), originalBytes, note).packed();
    }

    /** As {@link #restore} without packing: a preview read back to be shown now, then let go. */
    public static OutputPreview restoreUnpacked(byte[] head, byte[] tail, long originalBytes, String note) {
        return new OutputPreview(head.clone(), tail.clone(), originalBytes, note);
    }

    /**
     * The same preview, kept deflated: for a finished session, whose preview is held for as long as
     * it is listed (a thousand sessions hold 64 MB of previews as they are) but read only when its
     * row is opened or its JSON printed. Parts that do not shrink by a tenth stay as they are.
     */
    public OutputPreview packed() {
        if (source != null) {
            return this; // nothing held to pack
        }
        PreviewPart h = head.packed();
        PreviewPart t = tail.packed();
        if (h == head && t == tail) {
            return this;
        }
        OutputPreview packed = new OutputPreview(h, t, originalBytes, note, null, dropped);
        packed.lastLine = lastLine(); // every listed row shows it: found now, from the plain bytes
        return packed;
    }

    /** Bytes this preview holds in memory (its parts, deflated or not). */
    public long heldBytes() {
        return head.held() + (long) tail.held();
    }

    private static byte[] readHead(FileChannel ch, long start, int len) throws IOException {
        return cutHead(readAt(ch, start, len));
    }

    private static byte[] readTail(FileChannel ch, long size, int len) throws IOException {
        return cutTail(readAt(ch, size - len, len));
    }

    private static byte[] readAt(FileChannel ch, long position, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(len);
        while (buf.hasRemaining()) {
            int n = ch.read(buf, position + buf.position());
            if (n < 0) {
                break; // the file shrank under us (truncated by someone else): show what there is
            }
        }
        return buf.hasRemaining() ? java.util.Arrays.copyOf(buf.array(), buf.position()) : buf.array();
    }

    /** Ends the head after its last newline when that keeps at least half of it, else at a UTF-8 boundary. */
    private static byte[] cutHead(byte[] b) {
        for (int i = b.length - 1; i >= b.length / 2; i--) {
            if (b[i] == '\n') {
                return java.util.Arrays.copyOf(b, i + 1);
            }
        }
        int end = b.length;
        int back = 0;
        // Walk back over continuation bytes to the lead byte; drop the sequence if it is incomplete.
        while (back < 3 && end - back - 1 >= 0 && isContinuation(b[end - back - 1])) {
            back++;
        }
        int leadIndex = end - back - 1;
        if (leadIndex >= 0 && sequenceLength(b[leadIndex]) > back + 1) {
            return java.util.Arrays.copyOf(b, leadIndex);
        }
        return b;
    }

    /** Starts the tail after its first newline when that keeps at least half of it, else at a UTF-8 boundary. */
    private static byte[] cutTail(byte[] b) {
        for (int i = 0; i < b.length / 2; i++) {
            if (b[i] == '\n') {
                return java.util.Arrays.copyOfRange(b, i + 1, b.length);
            }
        }
        int start = 0;
        while (start < 3 && start < b.length && isContinuation(b[start])) {
            start++;
        }
        return java.util.Arrays.copyOfRange(b, start, b.length);
    }

    static boolean isContinuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    private static int sequenceLength(byte lead) {
        int u = lead & 0xFF;
        if (u < 0x80) {
            return 1;
        }
        if (u >= 0xF0) {
            return 4;
        }
        if (u >= 0xE0) {
            return 3;
        }
        return u >= 0xC0 ? 2 : 1;
    }

    /** Whether the kept output outgrew the preview (bytes max_output dropped are not part of it). */
    public boolean truncated() {
        return originalBytes - dropped > head.length() + (long) tail.length();
    }

    /** Bytes of output the session wrote in total. */
    public long originalBytes() {
        return originalBytes;
    }

    /** Bytes of output this preview shows. */
    public long visibleBytes() {
        return head.length() + (long) tail.length();
    }

    /** Bytes of the kept output between the head and the tail. */
    public long omittedBytes() {
        return originalBytes - dropped - visibleBytes();
    }

    public boolean isEmpty() {
        return originalBytes == 0;
    }

    /** The head's raw bytes (the whole output when it fit), for storing. */
    public byte[] headBytes() {
        if (source != null) {
            return readBack().headBytes();
        }
        return head.bytes();
    }

    /** The tail's raw bytes (empty when the output fit), for storing. */
    public byte[] tailBytes() {
        if (source != null) {
            return readBack().tailBytes();
        }
        return tail.bytes();
    }

    /** Why the output is empty, when runboard knows (e.g. a timeout with no output); else null. */
    public String note() {
        return note;
    }

    /** The preview as text: head, an omission marker when truncated, tail. */
    public String text() {
        if (isEmpty() && note != null) {
            return "[runboard] " + note + "\n";
        }
        if (source != null) {
            return readBack().withDropped(dropped).text();
        }
        String before = dropped > 0 ? droppedMarker(dropped) : "";
        if (!truncated()) {
            return before + decode(head.bytes());
        }
        return before + decode(head.bytes()) + omissionMarker(omittedBytes()) + decode(tail.bytes());
    }

    /**
     * {@link #text()} encoded as UTF-8, made from the bytes without a String of the whole: for a
     * writer of bytes (exec's snapshot on stdout, a record on disk), to which the text's one
     * {@code …} made it a UTF-16 string to decode, escape and encode again, character by character.
     */
    public byte[] textUtf8() {
        if (isEmpty() && note != null || source != null || dropped > 0) {
            return text().getBytes(StandardCharsets.UTF_8);
        }
        byte[] shownHead = ShownUtf8.of(head.bytes());
        if (!truncated()) {
            return shownHead;
        }
        byte[] marker = omissionMarker(omittedBytes()).getBytes(StandardCharsets.UTF_8);
        byte[] shownTail = ShownUtf8.of(tail.bytes());
        byte[] whole = Arrays.copyOf(shownHead, shownHead.length + marker.length + shownTail.length);
        System.arraycopy(marker, 0, whole, shownHead.length, marker.length);
        System.arraycopy(shownTail, 0, whole, shownHead.length + marker.length, shownTail.length);
        return whole;
    }

    /**
     * The last non-blank line of the output as a terminal shows it ({@link LastLine}); empty when
     * there is none. Decodes only the last {@value LastLine#WINDOW} bytes (the table asks for this
     * on every tick, for every row), and remembers the answer.
     */
    public String lastLine() {
        String known = lastLine;
        if (known == null) {
            known = findLastLine();
            lastLine = known;
        }
        return known;
    }

    private String findLastLine() {
        if (isEmpty() && note != null) {
            return note;
        }
        return LastLine.ofEnd((truncated() ? tail : head).bytes(), false);
    }

    /** What stands before a kept output whose start max_output dropped. */
    static String droppedMarker(long dropped) {
        return "[runboard] " + droppedNotice(dropped) + "\n";
    }

    /** "1234 bytes dropped (1.2 KiB; max_output keeps the newest output)": what the preview, tail and the viewer say. */
    public static String droppedNotice(long dropped) {
        return dropped + " bytes dropped (" + Sizes.format(dropped) + "; max_output keeps the newest output)";
    }

    static String omissionMarker(long omitted) {
        return "\n\u2026 " + Sizes.format(omitted) + " omitted (" + omitted + " bytes): open the artifact for the full output \u2026\n";
    }

    /**
     * Decodes UTF-8 with every invalid sequence and every NUL shown as U+FFFD. {@code new String}
     * replaces invalid sequences as a REPLACE decoder does (OutputPreviewTest holds the two side by
     * side) in one pass over the bytes, where the decoder's loop costs a short exec, whose code is
     * not compiled yet, several ms per 64 KiB preview (docs/BENCHMARKS.md §10, round 5).
     */
    public static String decode(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.indexOf('\0') < 0 ? text : text.replace('\0', REPLACEMENT);
    }
}
